#ifndef ONTHEMAP_CONCURRENCY_HOOKS_H
#define ONTHEMAP_CONCURRENCY_HOOKS_H

/// Sets the Swift concurrency runtime's `swift_task_enqueueGlobal_hook` (swift/Runtime/
/// ConcurrencyHooks.def in the Swift repository): `hook` is a Swift-convention (`@convention(thin)`)
/// function taking the job and the runtime's own enqueue function; NULL keeps the runtime's own
/// executor (libdispatch on Linux). Call once, before the first task is created.
void onthemap_set_enqueue_global_hook(void *_Nullable hook);

#endif
