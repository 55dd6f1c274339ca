package io.batchyard.queue.compaction.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.util.List;

/**
 * Where small objects, merged objects and manifests live. Keys are relative, '/'-separated paths. A write becomes
 * visible only complete: {@link #create} hands out a pending object that appears under its key on {@link
 * PendingObject#commit()} (durable, then atomically renamed), so a reader or a crashed writer never sees half a file.
 */
public interface ObjectStore {

    /** An object being written; invisible until committed. */
    interface PendingObject extends AutoCloseable {
        OutputStream stream();

        /** Makes the object durable and visible under its key (replacing an older object of the same key). */
        long commit() throws IOException;

        /** Discards what was written, unless committed; idempotent. */
        @Override
        void close();
    }

    PendingObject create(String key) throws IOException;

    InputStream open(String key) throws IOException;

    boolean exists(String key);

    long size(String key) throws IOException;

    /** Keys directly under a folder key (ending in '/'), sorted; empty when the folder does not exist. */
    List<String> list(String folder) throws IOException;

    void delete(String key) throws IOException;

    /** Places the object of {@code sourceKey} under {@code key} as well (a link where possible, else a copy). */
    void copy(String sourceKey, String key) throws IOException;

    /** Validates a key given by a client; throws {@link IllegalArgumentException} if it leaves the store. */
    String checkKey(String key);

    URI uri(String key);

    /** The rule every store applies to a client's key: a relative '/'-separated path without empty, '.' or '..' segments. */
    static String checkRelativeKey(String key) {
        if (key == null || key.isBlank() || key.startsWith("/") || key.contains("\\")) {
            throw new IllegalArgumentException("an object key is a relative '/'-separated path");
        }
        for (String part : key.split("/")) {
            if (part.isEmpty() || part.equals(".") || part.equals("..")) {
                throw new IllegalArgumentException("an object key may not contain empty, '.' or '..' segments");
            }
        }
        return key;
    }
}
