package io.batchyard.queue.compaction.store;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * Where one table's objects live: the service's filesystem store, or a bucket of the S3-compatible store with a key
 * prefix prepended to every key of the table. Chosen when the table is registered and never changed afterwards.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record StoreLocation(Kind kind, String bucket, String prefix) {

    public enum Kind {
        FILESYSTEM, S3;

        @JsonValue
        public String json() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        public static Kind parse(String value) {
            return valueOf(value.toUpperCase(java.util.Locale.ROOT));
        }
    }

    public static final StoreLocation FILESYSTEM = new StoreLocation(Kind.FILESYSTEM, null, "");

    public StoreLocation {
        prefix = prefix == null ? "" : prefix;
    }

    public static StoreLocation s3(String bucket, String prefix) {
        return new StoreLocation(Kind.S3, bucket, prefix);
    }

    /** From the table's columns. */
    public static StoreLocation of(String kind, String bucket, String prefix) {
        return Kind.parse(kind) == Kind.FILESYSTEM ? FILESYSTEM : s3(bucket, prefix);
    }

    @Override
    public String toString() {
        return kind == Kind.FILESYSTEM ? "filesystem" : "s3://" + bucket + "/" + prefix;
    }
}
