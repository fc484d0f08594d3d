// Asks the processor to bring memory into the cache ahead of its use: a hint that waits on
// nothing and changes nothing.
static inline void trellis_prefetch(const void *address) {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(address, 0, 3);
#endif
}
