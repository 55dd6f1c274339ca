package io.batchyard.client;

/**
 * A file for RegisterFile. {@code batchId} null or 0 makes a new batch; {@code creationTs} is ISO-8601 with an offset
 * (e.g. {@code 2024-05-01T10:00:00Z}) or null.
 */
public record FileToRegister(Long subProcessId, long serverId, String path, long fileSize, String fileHash,
                             String creationTs, Long batchId) {
}
