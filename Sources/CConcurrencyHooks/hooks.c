#include "onthemap_concurrency_hooks.h"

// Defined by the Swift runtime (libswift_Concurrency), holding Swift-convention function pointers;
// declared as plain pointers, as SwiftNIO's own global-executor takeover reaches them.
extern void *swift_task_enqueueGlobal_hook;
extern void *swift_task_enqueueGlobalWithDelay_hook;
extern void *swift_task_enqueueGlobalWithDeadline_hook;

void onthemap_set_concurrency_hooks(void *global, void *withDelay, void *withDeadline) {
    swift_task_enqueueGlobal_hook = global;
    swift_task_enqueueGlobalWithDelay_hook = withDelay;
    swift_task_enqueueGlobalWithDeadline_hook = withDeadline;
}
