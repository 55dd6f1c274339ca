package io.batchyard.client;

/** RegisterFile's answer: the file as stored, under {@code batchId}. */
public record RegisteredFile(long batchId, long serverId, String path, long fileSize, String fileHash,
                             String creationTs) {
}
