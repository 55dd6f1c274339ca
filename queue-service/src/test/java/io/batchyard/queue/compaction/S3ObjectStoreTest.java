package io.batchyard.queue.compaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.batchyard.queue.QueueTest;
import io.batchyard.queue.compaction.store.ObjectStore;
import io.batchyard.queue.compaction.store.StoreLocation;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.security.MessageDigest;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The S3 store against the real S3-compatible server of the test stack: what the merge relies on from a store. */
@QueueTest
class S3ObjectStoreTest {

    @Inject
    Compaction compaction;

    @Test
    void anObjectAppearsWholeOnlyOnCommitAndALargeOneIsUploadedInParts() throws Exception {
        StoreLocation location = TestStore.S3.location();
        ObjectStore store = compaction.stores.of(StoreLocation.s3(location.bucket(), location.prefix() + "store-test/"));
        String key = "t/merged/part-1.jsonl";
        byte[] large = new byte[11 * 1024 * 1024 + 17]; // three parts of at most 5 MiB (the test's part size)
        for (int i = 0; i < large.length; i++) {
            large[i] = (byte) ('a' + i % 26);
        }
        try (ObjectStore.PendingObject out = store.create(key)) {
            out.stream().write(large);
            assertThat(store.exists(key)).as("invisible until committed").isFalse();
            assertThat(out.commit()).isEqualTo(large.length);
        }
        assertThat(store.size(key)).isEqualTo(large.length);
        try (InputStream in = store.open(key)) {
            assertThat(MessageDigest.getInstance("SHA-256").digest(in.readAllBytes()))
                    .isEqualTo(MessageDigest.getInstance("SHA-256").digest(large));
        }

        ObjectStore.PendingObject abandoned = store.create("t/merged/part-2.jsonl");
        abandoned.stream().write("half".getBytes(StandardCharsets.UTF_8));
        abandoned.close();
        assertThat(store.exists("t/merged/part-2.jsonl")).as("an abandoned write leaves nothing").isFalse();

        store.copy(key, "t/live/object-1.jsonl");
        assertThat(store.list("t/merged/")).containsExactly(key);
        assertThat(store.list("t/live")).containsExactly("t/live/object-1.jsonl");
        assertThat(store.list("t/none/")).isEmpty();
        assertThat(store.uri(key).toString()).isEqualTo("s3://" + location.bucket() + "/" + location.prefix()
                + "store-test/" + key);

        store.delete(key);
        assertThat(store.exists(key)).isFalse();
        assertThatThrownBy(() -> store.open(key)).isInstanceOf(NoSuchFileException.class);
        assertThatThrownBy(() -> store.copy(key, "t/x.jsonl")).isInstanceOf(NoSuchFileException.class);
        try (InputStream in = store.open("t/live/object-1.jsonl")) {
            assertThat(Arrays.equals(in.readNBytes(26), Arrays.copyOf(large, 26))).isTrue();
        }
    }

    @Test
    void aBucketTheServerDoesNotHaveIsABrokenStoreNotAMissingObject() {
        ObjectStore store = compaction.stores.of(StoreLocation.s3("no-such-bucket-" + System.nanoTime() % 100_000, ""));
        assertThatThrownBy(() -> store.open("a/b.jsonl")).isInstanceOf(IOException.class)
                .isNotInstanceOf(NoSuchFileException.class);
        assertThatThrownBy(() -> store.list("a/")).isInstanceOf(IOException.class)
                .isNotInstanceOf(NoSuchFileException.class);
        assertThatThrownBy(() -> {
            try (ObjectStore.PendingObject out = store.create("a/c.jsonl")) {
                OutputStream s = out.stream();
                s.write(1);
                out.commit();
            }
        }).isInstanceOf(IOException.class);
    }
}
