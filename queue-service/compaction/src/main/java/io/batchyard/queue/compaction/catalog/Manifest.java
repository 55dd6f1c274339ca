package io.batchyard.queue.compaction.catalog;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.List;

/**
 * The body of {@code manifest-<version>.json}: every merged object of a switched partition, in ascending upper-bound
 * order, with its URL and size. Readers query exactly these files.
 */
public record Manifest(List<Entry> entries) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** One merged object. */
    public record Entry(String url, Meta meta) {
    }

    /** What a reader may want to know before opening the object. */
    public record Meta(@JsonProperty("content_length") long contentLength) {
    }

    public long totalBytes() {
        return entries.stream().mapToLong(e -> e.meta().contentLength()).sum();
    }

    public byte[] toJson() {
        try {
            return JSON.writeValueAsBytes(this);
        } catch (IOException e) {
            throw new IllegalStateException("a manifest always serialises", e);
        }
    }

    public static Manifest fromJson(byte[] json) throws IOException {
        return JSON.readValue(json, Manifest.class);
    }
}
