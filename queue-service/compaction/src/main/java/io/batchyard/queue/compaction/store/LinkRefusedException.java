package io.batchyard.queue.compaction.store;

import java.io.UncheckedIOException;
import java.nio.file.FileSystemException;

/**
 * The filesystem store met a symbolic link on the way to a key. It never follows one: a link would have the service
 * read or write what the key does not name (another table's objects, or any file the service may open).
 */
public final class LinkRefusedException extends UncheckedIOException {

    public LinkRefusedException(String key) {
        super("object key " + key + " leads through a symbolic link",
                new FileSystemException(key, null, "symbolic link refused"));
    }
}
