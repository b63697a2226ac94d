#ifndef ONTHEMAP_CONCURRENCY_HOOKS_H
#define ONTHEMAP_CONCURRENCY_HOOKS_H

/// Sets the Swift concurrency runtime's executor hooks (swift/Runtime/ConcurrencyHooks.def in the
/// Swift repository): `swift_task_enqueueGlobal_hook`, `…WithDelay_hook` and `…WithDeadline_hook`.
/// Each argument is a Swift-convention (`@convention(thin)`) function; NULL keeps the runtime's
/// own executor (libdispatch on Linux). Call once, before the first task is created.
void onthemap_set_concurrency_hooks(void *_Nullable global, void *_Nullable withDelay, void *_Nullable withDeadline);

#endif
