//! Suspending states to disk at the memory cap, and resuming them.
//!
//! States are suspended in batches of neighbours in the process tree (they
//! share the most): one file per batch (`store`), in a compact form (`wire`,
//! `codec`) where what the batch's states share is written once and what the
//! start image holds is referred to by number. A batch comes back whole, with
//! its sharing. Suspended states leave the searchers and the process tree and
//! rejoin them when resumed.

pub mod codec;
pub mod store;
pub mod wire;

use crate::executor::Executor;
use crate::state::{State, StateId};
use std::rc::Rc;
use store::Ticket;
use symtest_ir::FuncId;

/// A suspended state as the run remembers it: where it stopped (to rank it
/// for resumption without reading it) and whether it covered code no test
/// covers yet (it needs a test when the run ends).
#[derive(Clone, Copy, Debug)]
pub struct Parked {
    pub id: StateId,
    pub func: FuncId,
    pub pc: u32,
    /// The innermost frame of the program's own code (function, current
    /// instruction), when the state is in library code.
    pub program_at: Option<(FuncId, u32)>,
    pub untested: bool,
}

/// States suspended together, in one file.
pub struct Batch {
    ticket: Ticket,
    pub states: Vec<Parked>,
}

impl Batch {
    /// Memory the record keeps.
    pub fn record_bytes(&self) -> usize {
        std::mem::size_of::<Batch>() + self.states.capacity() * std::mem::size_of::<Parked>()
    }

    /// Bytes of the batch's file.
    pub fn disk_bytes(&self) -> u64 {
        self.ticket.bytes
    }
}

impl Executor<'_> {
    /// The start image's pieces, registered on first use.
    fn image_pieces(&mut self) -> Rc<wire::Image> {
        if let Some(i) = &self.image_pieces {
            return i.clone();
        }
        let mut image = wire::Image::default();
        if let Some(m) = &self.image {
            m.register_image(&mut image);
        }
        let image = Rc::new(image);
        self.image_pieces = Some(image.clone());
        image
    }

    /// Writes states from the back of `pending` to the suspend directory as
    /// one batch (at most `max_states`, and no more states once the batch
    /// holds `max_bytes`); on failure gives the batch's states back with the
    /// reason (the caller drops them).
    pub(crate) fn suspend(
        &mut self,
        pending: &mut Vec<State>,
        max_states: usize,
        max_bytes: usize,
    ) -> Result<(), (Vec<State>, String)> {
        let mut batch = Vec::new();
        if self.store.is_none() {
            batch.append(pending);
            return Err((batch, "no suspend directory".into()));
        }
        let image = self.image_pieces();
        let mut enc = codec::BatchWriter::new(&image);
        while let Some(st) = pending.pop() {
            enc.add(&st);
            batch.push(st);
            if batch.len() >= max_states || enc.len() >= max_bytes {
                break;
            }
        }
        let payload = enc.finish();
        let store = self.store.as_mut().expect("checked above");
        match store.save(&payload) {
            Ok(ticket) => {
                let mut parked = Vec::with_capacity(batch.len());
                for st in batch {
                    let f = st.frame();
                    parked.push(Parked {
                        id: st.id,
                        func: f.func,
                        pc: f.pc,
                        program_at: self
                            .coverage
                            .program_frame(&st)
                            .filter(|p| p.func != f.func)
                            .map(|p| (p.func, p.cur)),
                        untested: self.has_untested_cover(&st),
                    });
                    self.ptree.remove(st.ptree_node);
                    self.cap.forget(st.id);
                }
                self.stats.suspensions += parked.len() as u64;
                self.suspended_count += parked.len();
                self.suspended.push(Batch {
                    ticket,
                    states: parked,
                });
                Ok(())
            }
            Err(e) => Err((batch, e.to_string())),
        }
    }

    /// Reads a batch back; a file that is refused loses its states (warned
    /// about and counted as dropped).
    pub(crate) fn resume(&mut self, batch: Batch) -> Vec<State> {
        self.suspended_count -= batch.states.len();
        let image = self.image_pieces();
        let Some(store) = self.store.as_mut() else {
            return Vec::new();
        };
        let states = store
            .load(&batch.ticket)
            .map_err(|e| e.to_string())
            .and_then(|payload| {
                let states = codec::decode_batch(&payload, &image, self.module, &self.pool)
                    .map_err(|e| format!("it is corrupt ({e})"))?;
                let ids: Vec<StateId> = states.iter().map(|s| s.id).collect();
                let expected: Vec<StateId> = batch.states.iter().map(|p| p.id).collect();
                if ids != expected {
                    return Err("it holds other states than were suspended".to_string());
                }
                Ok(states)
            });
        match states {
            Ok(mut states) => {
                // The first joins beside a random live state, each other one
                // beside a random batch-mate already placed.
                for i in 0..states.len() {
                    if i == 0 {
                        states[0].ptree_node = self.graft(states[0].id);
                        continue;
                    }
                    let j = self.rng.below(i as u64) as usize;
                    let (a, b) = self
                        .ptree
                        .split(states[j].ptree_node, states[j].id, states[i].id);
                    states[j].ptree_node = a;
                    states[i].ptree_node = b;
                }
                self.stats.resumptions += states.len() as u64;
                states
            }
            Err(why) => {
                self.stats.states_dropped += batch.states.len() as u64;
                self.warn_once(format!(
                    "a file of suspended states was refused: {why}; its {} state(s) are lost (counted as dropped)",
                    batch.states.len()
                ));
                Vec::new()
            }
        }
    }

    /// Forgets a batch unread (its states end without a test).
    pub(crate) fn discard(&mut self, batch: Batch) {
        self.suspended_count -= batch.states.len();
        if let Some(store) = self.store.as_mut() {
            store.discard(&batch.ticket);
        }
    }

    /// A process-tree leaf for a resumed state: a random live state's leaf is
    /// split, as if the state had been forked from it.
    fn graft(&mut self, id: StateId) -> usize {
        let other = self.ptree.random_path(&mut self.rng);
        match other.and_then(|o| self.states.get_mut(&o).map(|s| (o, s))) {
            Some((other, live)) => {
                let (a, b) = self.ptree.split(live.ptree_node, other, id);
                live.ptree_node = a;
                b
            }
            None => self.ptree.attach(id),
        }
    }
}
