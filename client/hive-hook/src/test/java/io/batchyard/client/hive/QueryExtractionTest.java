package io.batchyard.client.hive;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class QueryExtractionTest {

    private static final String INSERT = "INSERT OVERWRITE TABLE sales.daily SELECT day, sum(amount) FROM sales.raw GROUP BY day";

    /** The configuration a generated Oozie Hive action sets, after Oozie resolved its EL. */
    private static Map<String, String> stepConf() {
        Map<String, String> conf = new HashMap<>();
        conf.put("batchyard.lineage.processId", "42");
        conf.put("batchyard.lineage.instanceExecId", "1007");
        conf.put("bdre.lineage.processId", "42");
        conf.put("bdre.lineage.instanceExecId", "1007");
        return conf;
    }

    private static Optional<ExecutedQuery> extract(Map<String, String> conf, String text, String op, String db) {
        return QueryExtraction.extract(conf::get, text, "hive_20240601_abc", op, db);
    }

    @Test
    void aStepsQueryCarriesItsProcessRunTextAndDatabase() {
        ExecutedQuery q = extract(stepConf(), "  " + INSERT + "\n", "QUERY", "sales").orElseThrow();
        assertThat(q.processId()).isEqualTo(42);
        assertThat(q.instanceExecId()).isEqualTo(1007L);
        assertThat(q.queryText()).isEqualTo(INSERT);
        assertThat(q.defaultDatabase()).isEqualTo("sales");
        assertThat(q.queryId()).isNotNull();
    }

    @Test
    void bdreNamesAreReadWhenBatchyardsAreAbsent() {
        Map<String, String> conf = Map.of("bdre.lineage.processId", "7", "bdre.lineage.instanceExecId", "9");
        ExecutedQuery q = extract(conf, INSERT, "QUERY", null).orElseThrow();
        assertThat(q.processId()).isEqualTo(7);
        assertThat(q.instanceExecId()).isEqualTo(9L);
    }

    @Test
    void batchyardNamesWinOverBdres() {
        Map<String, String> conf = Map.of("batchyard.lineage.processId", "5", "bdre.lineage.processId", "6");
        assertThat(extract(conf, INSERT, "QUERY", null).orElseThrow().processId()).isEqualTo(5);
    }

    @Test
    void aQueryOutsideABatchyardStepIsNotSent() {
        assertThat(extract(Map.of(), INSERT, "QUERY", "sales")).isEmpty();
        assertThat(extract(Map.of("batchyard.lineage.processId", ""), INSERT, "QUERY", null)).isEmpty();
        assertThat(extract(Map.of("batchyard.lineage.processId", "abc"), INSERT, "QUERY", null)).isEmpty();
        assertThat(extract(Map.of("batchyard.lineage.processId", "0"), INSERT, "QUERY", null)).isEmpty();
    }

    @Test
    void anUnknownRunIsSentWithoutOne() {
        Map<String, String> conf = stepConf();
        conf.put("batchyard.lineage.instanceExecId", "${wf:actionData('init-job')['instance-exec-id']}");
        conf.remove("bdre.lineage.instanceExecId");
        assertThat(extract(conf, INSERT, "QUERY", null).orElseThrow().instanceExecId()).isNull();
        conf.put("batchyard.lineage.instanceExecId", "-3");
        assertThat(extract(conf, INSERT, "QUERY", null).orElseThrow().instanceExecId()).isNull();
    }

    @Test
    void onlyStatementsWithLineageAreSent() {
        for (String op : new String[] {"QUERY", "CREATETABLE", "CREATETABLE_AS_SELECT", "CREATEVIEW", "ALTERVIEW_AS",
                "CREATE_MATERIALIZED_VIEW"}) {
            assertThat(extract(stepConf(), INSERT, op, null)).as(op).isPresent();
        }
        for (String op : new String[] {"SWITCHDATABASE", "DROPTABLE", "LOAD", "ALTERTABLE_ADDPARTS", "SHOWTABLES",
                "EXPLAIN", "MSCK"}) {
            assertThat(extract(stepConf(), "whatever", op, null)).as(op).isEmpty();
        }
        // A Hive that does not say which operation ran: lineage-service decides.
        assertThat(extract(stepConf(), INSERT, null, null)).isPresent();
    }

    @Test
    void blankTextOrDatabaseIsNothing() {
        assertThat(extract(stepConf(), "  \n ", "QUERY", null)).isEmpty();
        assertThat(extract(stepConf(), null, "QUERY", null)).isEmpty();
        assertThat(extract(stepConf(), INSERT, "QUERY", "  ").orElseThrow().defaultDatabase()).isNull();
    }

    @Test
    void theSameExecutionAlwaysGetsTheSameIdAndAnotherExecutionAnother() {
        assertThat(QueryExtraction.queryId("hive_1", 42, 1007L)).isEqualTo(QueryExtraction.queryId("hive_1", 42, 1007L));
        assertThat(QueryExtraction.queryId("hive_1", 42, 1007L)).isNotEqualTo(QueryExtraction.queryId("hive_2", 42, 1007L));
        assertThat(QueryExtraction.queryId("hive_1", 42, 1007L)).isNotEqualTo(QueryExtraction.queryId("hive_1", 42, 1008L));
        assertThat(QueryExtraction.queryId("hive_1", 42, null)).isNotEqualTo(QueryExtraction.queryId("hive_1", 43, null));
        assertThat(QueryExtraction.queryId(null, 42, 1L)).isNull();
        assertThat(QueryExtraction.extract(stepConf()::get, INSERT, " ", "QUERY", null).orElseThrow().queryId()).isNull();
    }
}
