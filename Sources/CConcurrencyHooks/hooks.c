#include "onthemap_concurrency_hooks.h"

// Defined by the Swift runtime (libswift_Concurrency), holding a Swift-convention function
// pointer; declared as a plain pointer, as SwiftNIO's own global-executor takeover reaches it.
extern void *swift_task_enqueueGlobal_hook;

void onthemap_set_enqueue_global_hook(void *hook) {
    swift_task_enqueueGlobal_hook = hook;
}
