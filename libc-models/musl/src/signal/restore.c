/* symtest: replaces musl's signal return trampoline (x86_64 assembly). Signals
 * are never delivered under the model, so it is never called. */
void __restore_rt(void)
{
}

void __restore(void)
{
}
