package io.batchyard.queue.compaction.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileSystemObjectStoreTest {

    @TempDir
    Path root;

    @Test
    void anObjectIsInvisibleUntilCommittedAndAnAbandonedWriteLeavesNothingListed() throws Exception {
        FileSystemObjectStore store = new FileSystemObjectStore(root);
        try (ObjectStore.PendingObject out = store.create("t/merged/part-1.jsonl")) {
            out.stream().write("half".getBytes(StandardCharsets.UTF_8));
            assertThat(store.exists("t/merged/part-1.jsonl")).isFalse();
            assertThat(store.list("t/merged/")).isEmpty();
            assertThat(out.commit()).isEqualTo(4);
        }
        assertThat(store.list("t/merged/")).containsExactly("t/merged/part-1.jsonl");
        ObjectStore.PendingObject abandoned = store.create("t/merged/part-2.jsonl");
        abandoned.stream().write(1);
        abandoned.close();
        assertThat(store.list("t/merged/")).containsExactly("t/merged/part-1.jsonl");
    }

    @Test
    void copyPlacesTheSameBytesAndKeysCannotLeaveTheRoot() throws Exception {
        FileSystemObjectStore store = new FileSystemObjectStore(root);
        Files.createDirectories(root.resolve("incoming"));
        Files.writeString(root.resolve("incoming/a.jsonl"), "{}\n");
        store.copy("incoming/a.jsonl", "t/live/dt=2024-01-01/object-1.jsonl");
        assertThat(store.size("t/live/dt=2024-01-01/object-1.jsonl")).isEqualTo(3);
        assertThatThrownBy(() -> store.checkKey("../etc/passwd")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store.checkKey("/etc/passwd")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store.open("../x")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void noSymbolicLinkIsFollowedForReadsOrWritesAndListingsLeaveLinksOut(@TempDir Path outside) throws Exception {
        FileSystemObjectStore store = new FileSystemObjectStore(root);
        Path secret = Files.writeString(outside.resolve("secret.jsonl"), "{\"secret\":1}\n");
        Files.createDirectories(root.resolve("incoming"));
        Files.writeString(root.resolve("incoming/a.jsonl"), "{}\n");
        Files.createSymbolicLink(root.resolve("incoming/link.jsonl"), secret);
        Files.createSymbolicLink(root.resolve("linked"), outside);

        // reads: a link as the object, or on the way to it
        for (String key : new String[] {"incoming/link.jsonl", "linked/secret.jsonl"}) {
            assertThatThrownBy(() -> store.open(key)).isInstanceOf(LinkRefusedException.class);
            assertThatThrownBy(() -> store.exists(key)).isInstanceOf(LinkRefusedException.class);
            assertThatThrownBy(() -> store.size(key)).isInstanceOf(LinkRefusedException.class);
            assertThatThrownBy(() -> store.copy(key, "t/live/dt=2024-01-01/object-9.jsonl"))
                    .isInstanceOf(LinkRefusedException.class);
            assertThatThrownBy(() -> store.delete(key)).isInstanceOf(LinkRefusedException.class);
        }
        assertThat(store.list("incoming/")).containsExactly("incoming/a.jsonl");
        assertThatThrownBy(() -> store.list("linked/")).isInstanceOf(LinkRefusedException.class);

        // writes: through a linked folder, or onto a link
        assertThatThrownBy(() -> store.create("linked/merged/part-1.jsonl")).isInstanceOf(LinkRefusedException.class);
        assertThatThrownBy(() -> store.copy("incoming/a.jsonl", "linked/live/object-1.jsonl"))
                .isInstanceOf(LinkRefusedException.class);
        assertThatThrownBy(() -> store.copy("incoming/a.jsonl", "incoming/link.jsonl"))
                .isInstanceOf(LinkRefusedException.class);
        try (java.util.stream.Stream<Path> left = Files.list(outside)) {
            assertThat(left).as("nothing written outside the store").containsExactly(secret);
        }
        assertThat(Files.readString(secret)).isEqualTo("{\"secret\":1}\n");
        assertThat(store.uri("incoming/link.jsonl")).as("a location is a name, not an access")
                .isEqualTo(store.root().resolve("incoming/link.jsonl").toUri());
    }
}
