package io.batchyard.queue.batch;

import java.time.OffsetDateTime;

/** A file registered under a batch. */
public record FileRow(long batchId, long serverId, String path, long fileSize, String fileHash,
                      OffsetDateTime creationTs) {
}
