package io.batchyard.lineage.column;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The clause each indirect edge comes from, as the walk over the parsed statement records it (no database). */
class IndirectClauseTest {

    private static final Map<String, List<String>> SCHEMAS = Map.of(
            "s.a", List.of("k", "v", "d"), "s.b", List.of("k", "w", "flag"));

    /**
     * The statement's indirect edges are exactly {@code expected}, each written {@code from -> to: CLAUSE ...}; a
     * column and table pair is one edge whatever the number of clauses, and direct edges carry no clause.
     */
    private static void indirect(String sql, String... expected) {
        QueryLineage lineage = new ColumnLineageExtractor().extract(sql, "default",
                name -> Optional.ofNullable(SCHEMAS.get(name)));
        assertThat(lineage.failed()).as(lineage.errorSummary()).isFalse();
        List<ColumnEdge> indirect = lineage.edges().stream().filter(ColumnEdge::indirect).toList();
        assertThat(lineage.edges()).filteredOn(e -> !e.indirect()).allMatch(e -> e.clauses().isEmpty());
        assertThat(indirect.stream().map(e -> e.from().notation() + e.to().notation()).distinct())
                .hasSameSizeAs(indirect);
        Set<String> found = indirect.stream().map(e -> e.from().notation() + " -> " + e.to().notation() + ":"
                        + e.clauses().stream().map(c -> " " + c).collect(Collectors.joining()))
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(found).containsExactlyInAnyOrder(expected);
    }

    @Test
    void aColumnInAJoinAndAGroupByIsOneEdgeWithBothClauses() {
        indirect("INSERT OVERWRITE TABLE t.out SELECT a.k, max(b.w) AS w FROM s.a a JOIN s.b b ON a.k = b.k GROUP BY a.k",
                "s.a.k -> t.out: JOIN GROUP_BY", "s.b.k -> t.out: JOIN");
    }

    @Test
    void whereAndHavingFilter() {
        indirect("INSERT OVERWRITE TABLE t.out SELECT a.k, sum(a.v) AS v FROM s.a a WHERE a.d > '2024-01-01' "
                + "GROUP BY a.k HAVING sum(a.v) > 10", "s.a.d -> t.out: FILTER", "s.a.k -> t.out: GROUP_BY",
                "s.a.v -> t.out: FILTER");
    }

    /** r names the select item: the rows are sorted by what r is made of (k and d); s.a has no column r. */
    @Test
    void windowPartitionAndOrderAreWindowAndTheQueryOrderIsSort() {
        indirect("INSERT OVERWRITE TABLE t.out SELECT a.k, rank() OVER (PARTITION BY a.k ORDER BY a.d) AS r FROM s.a a "
                + "ORDER BY a.v, r", "s.a.v -> t.out: SORT", "s.a.k -> t.out: SORT WINDOW", "s.a.d -> t.out: SORT WINDOW");
    }

    @Test
    void caseAndIfConditionsAreConditionalButTheirValuesAreNot() {
        indirect("INSERT OVERWRITE TABLE t.out SELECT CASE WHEN b.flag = 1 THEN b.w ELSE 0 END AS x, "
                + "if(b.k > 0, b.w, NULL) AS y FROM s.b b", "s.b.flag -> t.out: CONDITIONAL", "s.b.k -> t.out: CONDITIONAL");
    }

    @Test
    void aSubQueryKeepsItsClausesOnItsTemporaryTable() {
        indirect("INSERT OVERWRITE TABLE t.out SELECT x.k FROM (SELECT a.k FROM s.a a WHERE a.v > 1) x "
                + "JOIN s.b b ON x.k = b.k", "s.a.v -> temp:x: FILTER", "temp:x.k -> t.out: JOIN", "s.b.k -> t.out: JOIN");
    }
}
