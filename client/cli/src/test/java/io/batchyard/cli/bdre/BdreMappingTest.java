package io.batchyard.cli.bdre;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** BDRE's rows in the registry's terms, and what the registry would refuse, without a registry. */
class BdreMappingTest {

    @Test
    void idListsDropBdresZeroAndBlanks() {
        assertThat(Bdre.ids("0")).isEmpty();
        assertThat(Bdre.ids(null)).isEmpty();
        assertThat(Bdre.ids("12, 13,,0")).containsExactly(12L, 13L);
    }

    @Test
    void onlyIdsInTheRegistrysRangeAreKept() {
        assertThat(BdreMapping.keepsId(1)).isTrue();
        assertThat(BdreMapping.keepsId(99_999_999L)).isTrue();
        assertThat(BdreMapping.keepsId(100_000_000L)).isFalse();
        assertThat(BdreMapping.keepsId(0)).isFalse();
    }

    @Test
    void anApplicationGrantsWhatEveryOneOfItsProcessesGranted() {
        Bdre.Process open = BdreSamples.parent(1, "a", 2, 1, "");
        Bdre.Process closed = new Bdre.Process(2, "b", "", 2, 1, null, true, List.of(), null, List.of(), false, 1,
                "ana", "ROLE_ETL", 6, 4, 0);
        assertThat(BdreMapping.permissions(List.of(open, closed)))
                .contains(new Registry.Permissions("ana", "ROLE_ETL", 6, 4, 0));
        assertThat(BdreMapping.permissionsDiffer(List.of(open, closed))).isTrue();
        assertThat(BdreMapping.permissionsDiffer(List.of(open, open))).isFalse();
        Bdre.Process none = new Bdre.Process(3, "c", "", 2, 1, null, true, List.of(), null, List.of(), false, 1,
                null, null, null, null, null);
        assertThat(BdreMapping.permissions(List.of(none))).isEmpty();
    }

    @Test
    void propertyKeysFollowTheRegistrysRule() {
        assertThat(BdreMapping.whyRefused(prop(" spaced key "), false)).isEmpty();
        assertThat(BdreMapping.whyRefused(prop("a/b"), false)).isPresent();
        assertThat(BdreMapping.whyRefused(prop("tab\there"), false)).contains("the key holds a control character");
        assertThat(BdreMapping.whyRefused(prop(".."), false)).isPresent();
        assertThat(BdreMapping.whyRefused(prop("k".repeat(129)), false)).isPresent();
        assertThat(BdreMapping.whyRefused(prop("\u00e9".repeat(128)), false)).as("characters, not bytes").isEmpty();
        Bdre.Property secret = new Bdre.Property(1, "credential", "pw", "x", "");
        assertThat(BdreMapping.whyRefused(secret, false)).isEmpty();
        assertThat(BdreMapping.whyRefused(secret, true)).isPresent();
    }

    @Test
    void theTypeHierarchyIsCheckedAsTheRegistryChecksIt() {
        Map<Integer, Integer> types = new HashMap<>();
        types.put(1, null);
        types.put(12, 1);
        assertThat(BdreMapping.whyRefused("p", "d", null, 1, null, false, types)).isEmpty();
        assertThat(BdreMapping.whyRefused("s", "d", null, 12, 1, true, types)).isEmpty();
        assertThat(BdreMapping.whyRefused("p", "d", null, 12, null, false, types)).isPresent();
        assertThat(BdreMapping.whyRefused("s", "d", null, 1, 1, true, types)).isPresent();
        assertThat(BdreMapping.whyRefused("p", "d", null, 99, null, false, types)).isPresent();
        assertThat(BdreMapping.whyRefused("n".repeat(46), "d", null, 1, null, false, types)).isPresent();
    }

    @Test
    void emptyTextEqualsAbsentAndSecretsAreComparedByPresenceOnly() {
        Registry.Server want = BdreMapping.server(new Bdre.Server(1, "hdfs", "h", "", "", "pw", "", "127.0.0.1"));
        Registry.Server live = new Registry.Server(9L, "hdfs", "h", null, null, "127.0.0.1", null, null, true, false);
        assertThat(BdreMapping.changes(want, live)).isEmpty();
        Registry.Property secret = BdreMapping.property(new Bdre.Property(1, "credential", "k", "v", ""));
        assertThat(BdreMapping.changes(secret, new Registry.Property("credential", "k", null, null, true))).isEmpty();
        Registry.Property plain = BdreMapping.property(new Bdre.Property(1, "param", "k", "v ", ""));
        assertThat(BdreMapping.changes(plain, new Registry.Property("param", "k", "v", null, false)))
                .containsExactly("value");
    }

    private static Bdre.Property prop(String key) {
        return new Bdre.Property(1, "param", key, "v", "");
    }
}
