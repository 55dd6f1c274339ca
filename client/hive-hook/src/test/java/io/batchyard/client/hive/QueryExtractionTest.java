package io.batchyard.client.hive;

import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.client.hive.QueryExtraction.Extraction;
import io.batchyard.client.hive.QueryExtraction.Missing;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class QueryExtractionTest {

    private static final String INSERT =
            "INSERT OVERWRITE TABLE sales.daily SELECT day, sum(amount) FROM sales.raw GROUP BY day";
    private static final String SCRIPT =
            "use sales; -- c\n insert overwrite table t select a from s ; set x=1; select b from t";

    /** The configuration a generated Oozie Hive action sets, after Oozie resolved its EL. */
    private static Map<String, String> stepConf() {
        Map<String, String> conf = new HashMap<>();
        conf.put("batchyard.lineage.processId", "42");
        conf.put("batchyard.lineage.instanceExecId", "1007");
        conf.put("bdre.lineage.processId", "42");
        conf.put("bdre.lineage.instanceExecId", "1007");
        return conf;
    }

    private static Extraction extract(Map<String, String> conf, String text, String op, String db) {
        return QueryExtraction.extract(conf::get, text, "hive_20240601_abc", op, db);
    }

    private static ExecutedQuery one(Map<String, String> conf, String text, String op, String db) {
        Extraction e = extract(conf, text, op, db);
        assertThat(e.missing()).isNull();
        assertThat(e.queries()).hasSize(1);
        return e.queries().get(0);
    }

    @Test
    void aStepsQueryCarriesItsProcessRunTextAndDatabase() {
        ExecutedQuery q = one(stepConf(), "  " + INSERT + "\n", "QUERY", "sales");
        assertThat(q.processId()).isEqualTo(42);
        assertThat(q.instanceExecId()).isEqualTo(1007L);
        assertThat(q.queryText()).isEqualTo(INSERT);
        assertThat(q.defaultDatabase()).isEqualTo("sales");
        assertThat(q.queryId()).isNotNull();
    }

    @Test
    void aScriptIsOneQueryPerStatementInOrderWithoutCommentsOrSet() {
        Extraction e = extract(stepConf(), SCRIPT, "QUERY", "default");
        assertThat(e.missing()).isNull();
        assertThat(e.queries()).extracting(ExecutedQuery::queryText)
                .containsExactly("use sales", "insert overwrite table t select a from s", "select b from t");
        assertThat(e.queries()).extracting(ExecutedQuery::processId).containsOnly(42L);
        assertThat(e.queries()).extracting(ExecutedQuery::instanceExecId).containsOnly(1007L);
        // The USE runs in the session's database; what follows it in the script runs in the database it names.
        assertThat(e.queries()).extracting(ExecutedQuery::defaultDatabase).containsExactly("default", "sales", "sales");
        assertThat(e.queries()).extracting(ExecutedQuery::queryId).doesNotHaveDuplicates().doesNotContainNull();
        // Whatever operation Hive names for a script: it cannot stand for each of its statements.
        assertThat(extract(stepConf(), SCRIPT, "SWITCHDATABASE", null).queries()).hasSize(3);
    }

    @Test
    void aStatementsTextIsFlattenedButItsLiteralsKeepTheirSemicolons() {
        ExecutedQuery q = one(stepConf(), "SELECT a,\r\n  'x; -- y'\tAS b /* why */ FROM t;", "QUERY", null);
        assertThat(q.queryText()).isEqualTo("SELECT a, 'x; -- y' AS b FROM t");
    }

    @Test
    void setStatementsAreNeverSent() {
        assertThat(extract(stepConf(), "SET hive.exec.dynamic.partition=true", null, null))
                .isEqualTo(new Extraction(List.of(), null));
        assertThat(extract(stepConf(), "set x=1; SET y=2;", "QUERY", null).queries()).isEmpty();
        assertThat(extract(stepConf(), "set x=1; " + INSERT, "QUERY", null).queries())
                .extracting(ExecutedQuery::queryText).containsExactly(INSERT);
    }

    @Test
    void aUseWithBackticksSwitchesToTheDatabaseItNames() {
        Extraction e = extract(stepConf(), "USE `stage`; SELECT 1 FROM t", null, null);
        assertThat(e.queries()).extracting(ExecutedQuery::defaultDatabase).containsExactly(null, "stage");
        assertThat(QueryExtraction.usedDatabase("use sales")).isEqualTo("sales");
        assertThat(QueryExtraction.usedDatabase("user_table")).isNull();
        assertThat(QueryExtraction.usedDatabase("select use")).isNull();
    }

    @Test
    void bdreNamesAreReadWhenBatchyardsAreAbsent() {
        Map<String, String> conf = Map.of("bdre.lineage.processId", "7", "bdre.lineage.instanceExecId", "9");
        ExecutedQuery q = one(conf, INSERT, "QUERY", null);
        assertThat(q.processId()).isEqualTo(7);
        assertThat(q.instanceExecId()).isEqualTo(9L);
    }

    @Test
    void batchyardNamesWinOverBdres() {
        Map<String, String> conf = Map.of("batchyard.lineage.processId", "5", "bdre.lineage.processId", "6",
                "batchyard.lineage.instanceExecId", "1");
        assertThat(one(conf, INSERT, "QUERY", null).processId()).isEqualTo(5);
    }

    @Test
    void withoutAProcessNothingIsRegisteredAndTheReasonSaysSo() {
        Map<String, String> run = Map.of("batchyard.lineage.instanceExecId", "1007");
        List<Map<String, String>> confs = List.of(run, Map.of(), withRun("batchyard.lineage.processId", ""),
                withRun("batchyard.lineage.processId", "abc"), withRun("batchyard.lineage.processId", "0"));
        for (Map<String, String> conf : confs) {
            assertThat(extract(conf, INSERT, "QUERY", "sales")).as(conf.toString())
                    .isEqualTo(new Extraction(List.of(), Missing.PROCESS_ID));
            assertThat(extract(conf, SCRIPT, "QUERY", "sales")).as(conf.toString())
                    .isEqualTo(new Extraction(List.of(), Missing.PROCESS_ID));
        }
    }

    @Test
    void withoutARunNothingIsRegisteredAndTheReasonSaysSo() {
        Map<String, String> conf = stepConf();
        conf.put("batchyard.lineage.instanceExecId", "${wf:actionData('init-job')['instance-exec-id']}");
        conf.remove("bdre.lineage.instanceExecId");
        assertThat(extract(conf, INSERT, "QUERY", null)).isEqualTo(new Extraction(List.of(), Missing.RUN_ID));
        assertThat(extract(conf, SCRIPT, "QUERY", null)).isEqualTo(new Extraction(List.of(), Missing.RUN_ID));
        conf.put("batchyard.lineage.instanceExecId", "-3");
        assertThat(extract(conf, INSERT, "QUERY", null).missing()).isEqualTo(Missing.RUN_ID);
        conf.remove("batchyard.lineage.instanceExecId");
        assertThat(extract(conf, INSERT, "QUERY", null).missing()).isEqualTo(Missing.RUN_ID);
    }

    @Test
    void aSingleStatementWithoutLineageIsNotSentWhateverTheIds() {
        for (String op : new String[] {"QUERY", "CREATETABLE", "CREATETABLE_AS_SELECT", "CREATEVIEW", "ALTERVIEW_AS",
                "CREATE_MATERIALIZED_VIEW"}) {
            assertThat(extract(stepConf(), INSERT, op, null).queries()).as(op).hasSize(1);
        }
        for (String op : new String[] {"SWITCHDATABASE", "DROPTABLE", "LOAD", "ALTERTABLE_ADDPARTS", "SHOWTABLES",
                "EXPLAIN", "MSCK"}) {
            assertThat(extract(stepConf(), "whatever", op, null)).as(op).isEqualTo(new Extraction(List.of(), null));
            assertThat(extract(Map.of(), "whatever", op, null)).as(op).isEqualTo(new Extraction(List.of(), null));
        }
        // A Hive that does not say which operation ran: lineage-service decides.
        assertThat(extract(stepConf(), INSERT, null, null).queries()).hasSize(1);
    }

    @Test
    void blankTextCommentsOnlyOrABlankDatabaseAreNothing() {
        assertThat(extract(stepConf(), "  \n ", "QUERY", null)).isEqualTo(new Extraction(List.of(), null));
        assertThat(extract(stepConf(), null, "QUERY", null)).isEqualTo(new Extraction(List.of(), null));
        assertThat(extract(stepConf(), "-- nothing; here\n;", "QUERY", null))
                .isEqualTo(new Extraction(List.of(), null));
        assertThat(one(stepConf(), INSERT, "QUERY", "  ").defaultDatabase()).isNull();
    }

    @Test
    void theSameStatementOfTheSameExecutionAlwaysGetsTheSameIdAndAnyOtherAnother() {
        UUID id = QueryExtraction.queryId("hive_1", 42, 1007L, 0);
        assertThat(QueryExtraction.queryId("hive_1", 42, 1007L, 0)).isEqualTo(id);
        assertThat(List.of(QueryExtraction.queryId("hive_2", 42, 1007L, 0),
                QueryExtraction.queryId("hive_1", 42, 1008L, 0), QueryExtraction.queryId("hive_1", 43, 1007L, 0),
                QueryExtraction.queryId("hive_1", 42, 1007L, 1)))
                .doesNotContain(id).doesNotHaveDuplicates();
        assertThat(QueryExtraction.queryId(null, 42, 1L, 0)).isNull();
        assertThat(QueryExtraction.extract(stepConf()::get, INSERT, " ", "QUERY", null).queries().get(0).queryId())
                .isNull();
    }

    private static Map<String, String> withRun(String name, String value) {
        return Map.of(name, value, "batchyard.lineage.instanceExecId", "1007");
    }
}
