package io.batchyard.queue.compaction.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;
import org.junit.jupiter.api.Test;

class ObjectKeysTest {

    private static final LocalDate DAY = LocalDate.of(2024, 3, 7);

    @Test
    void keysAreDeterministicAndZeroPadded() {
        String prefix = ObjectKeys.tablePrefix("sales", "orders");
        assertThat(prefix).matches("[0-9a-f]{4}\\.sales\\.orders/").isEqualTo(ObjectKeys.tablePrefix("sales", "orders"));
        assertThat(ObjectKeys.smallObject(prefix, DAY, 42, false))
                .isEqualTo(prefix + "live/dt=2024-03-07/object-0000000000000000042.jsonl");
        assertThat(ObjectKeys.smallObject(prefix, DAY, 42, true))
                .isEqualTo(prefix + "delayed/dt=2024-03-07/object-0000000000000000042.jsonl");
        assertThat(ObjectKeys.merged(prefix, DAY, 0, 17))
                .isEqualTo(prefix + "merged/dt=2024-03-07/part-0000000000000000000-0000000000000000017.jsonl");
        assertThat(ObjectKeys.manifest(prefix, DAY, 17))
                .isEqualTo(prefix + "merged/dt=2024-03-07/manifest-0000000000000000017.json");
    }

    @Test
    void theHashPrefixIsTheFirstTwoMd5BytesOfSchemaDotTable() {
        // md5("a.b") = e32b629f... (computed independently with coreutils md5sum)
        assertThat(ObjectKeys.tablePrefix("a", "b")).isEqualTo("e32b.a.b/");
    }

    @Test
    void boundsParseBackFromMergedKeysOnly() {
        String prefix = ObjectKeys.tablePrefix("s", "t");
        assertThat(ObjectKeys.partBounds(ObjectKeys.merged(prefix, DAY, 3, 9))).contains(new ObjectKeys.PartBounds(3, 9));
        assertThat(ObjectKeys.partBounds(ObjectKeys.manifest(prefix, DAY, 9))).isEmpty();
    }
}
