/*
 * stack_vm.c - a small stack machine: a bytecode program of push, add,
 * sub, mul, div, mod, neg, dup, swap, drop, conditional jump and halt over
 * a bounded operand stack, with arithmetic overflow detection (the VM
 * reports it instead of overflowing), a step limit, and a disassembler.
 *
 * Harness: a symbolic 7-byte program.
 *
 * Planted bug: the VM guards division against a zero divisor but not the
 * modulo instruction.
 */
#include "symtest.h"

#define CODE_LEN 7
#define STACK 4
#define MAX_STEPS 16

enum op { OP_PUSH, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD, OP_NEG, OP_DUP, OP_SWAP, OP_DROP, OP_JZ, OP_HALT };

enum vm_status { VM_HALT, VM_END, VM_UNDERFLOW, VM_OVERFLOW, VM_ARITH, VM_BADOP, VM_STEPS, VM_BADJUMP };

struct vm {
  int stack[STACK];
  int sp;
  int pc;
  int steps;
};

static int push(struct vm *m, int v) {
  if (m->sp == STACK)
    return 0;
  m->stack[m->sp++] = v;
  return 1;
}

static int pop(struct vm *m, int *v) {
  if (m->sp == 0)
    return 0;
  *v = m->stack[--m->sp];
  return 1;
}

/* a op b with overflow detection; returns 0 on overflow */
static int arith(enum op op, int a, int b, int *r) {
  switch (op) {
  case OP_ADD:
    return !__builtin_add_overflow(a, b, r);
  case OP_SUB:
    return !__builtin_sub_overflow(a, b, r);
  case OP_MUL:
    return !__builtin_mul_overflow(a, b, r);
  case OP_DIV:
    if (b == 0 || (a == -2147483647 - 1 && b == -1))
      return 0;
    *r = a / b;
    return 1;
  default: /* OP_MOD */
    if (a == -2147483647 - 1 && b == -1)
      return 0;
    *r = a % b; // EXPECT-ERROR: div
    return 1;
  }
}

static enum vm_status run(struct vm *m, const unsigned char *code, int n) {
  m->sp = 0;
  m->pc = 0;
  m->steps = 0;
  while (m->pc < n) {
    unsigned char ins = code[m->pc];
    enum op op = (enum op)(ins >> 4);
    int a, b, r;
    if (++m->steps > MAX_STEPS)
      return VM_STEPS;
    m->pc++;
    switch (op) {
    case OP_PUSH:
      if (!push(m, (ins & 15) - 4))
        return VM_OVERFLOW;
      break;
    case OP_ADD:
    case OP_SUB:
    case OP_MUL:
    case OP_DIV:
    case OP_MOD:
      if (!pop(m, &b) || !pop(m, &a))
        return VM_UNDERFLOW;
      if (!arith(op, a, b, &r))
        return VM_ARITH;
      push(m, r);
      break;
    case OP_NEG:
      if (!pop(m, &a))
        return VM_UNDERFLOW;
      if (a == -2147483647 - 1)
        return VM_ARITH;
      push(m, -a);
      break;
    case OP_DUP:
      if (m->sp == 0)
        return VM_UNDERFLOW;
      if (!push(m, m->stack[m->sp - 1]))
        return VM_OVERFLOW;
      break;
    case OP_SWAP:
      if (m->sp < 2)
        return VM_UNDERFLOW;
      a = m->stack[m->sp - 1];
      m->stack[m->sp - 1] = m->stack[m->sp - 2];
      m->stack[m->sp - 2] = a;
      break;
    case OP_DROP:
      if (!pop(m, &a))
        return VM_UNDERFLOW;
      break;
    case OP_JZ:
      if (!pop(m, &a))
        return VM_UNDERFLOW;
      if (a == 0) {
        int target = ins & 15;
        if (target >= n)
          return VM_BADJUMP;
        m->pc = target;
      }
      break;
    case OP_HALT:
      return VM_HALT;
    default:
      return VM_BADOP;
    }
  }
  return VM_END;
}

/* Counts the instructions of each class (a disassembler's summary). */
static int disassemble(const unsigned char *code, int n, int *arith_ops, int *stack_ops, int *jumps) {
  int i, bad = 0;
  *arith_ops = *stack_ops = *jumps = 0;
  for (i = 0; i < n; i++) {
    int op = code[i] >> 4;
    if (op >= OP_ADD && op <= OP_NEG)
      (*arith_ops)++;
    else if (op == OP_PUSH || (op >= OP_DUP && op <= OP_DROP))
      (*stack_ops)++;
    else if (op == OP_JZ)
      (*jumps)++;
    else if (op != OP_HALT)
      bad++;
  }
  return bad;
}

int main(void) {
  unsigned char code[CODE_LEN];
  struct vm m;
  int ar, st, jz;
  enum vm_status s;
  symtest_make_symbolic(code, sizeof code, "code");
  if (disassemble(code, CODE_LEN, &ar, &st, &jz) > 2)
    return 100;
  s = run(&m, code, CODE_LEN);
  if (s == VM_HALT || s == VM_END)
    return m.sp > 0 ? m.stack[m.sp - 1] & 63 : 0;
  return 64 + (int)s;
}
