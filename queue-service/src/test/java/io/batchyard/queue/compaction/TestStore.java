package io.batchyard.queue.compaction;

import io.batchyard.queue.compaction.store.StoreLocation;
import io.batchyard.teststack.Infrastructure;

/**
 * The stores every compaction test runs on: the service's filesystem store and the shared S3-compatible store of the
 * test stack (S3Proxy), under a prefix of this JVM's own so parallel runs against one server never meet.
 */
public enum TestStore {
    FILESYSTEM, S3;

    private static final String RUN_PREFIX = "run-" + ProcessHandle.current().pid() + "-" + System.currentTimeMillis() + "/";

    public StoreLocation location() {
        return this == FILESYSTEM ? StoreLocation.FILESYSTEM
                : StoreLocation.s3(Infrastructure.get().objectStore().bucket(), RUN_PREFIX);
    }
}
