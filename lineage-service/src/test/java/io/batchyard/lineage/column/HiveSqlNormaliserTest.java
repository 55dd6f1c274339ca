package io.batchyard.lineage.column;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HiveSqlNormaliserTest {

    @Test
    void splitsOnSemicolonsOutsideQuotesAndDropsComments() {
        assertThat(HiveSqlNormaliser.statements("""
                -- header; not a statement
                SELECT 'a;b' AS x, "c;d" AS `y;z` FROM t; /* block; comment */
                SELECT 1 -- last line; no newline""")).containsExactly(
                "SELECT 'a;b' AS x, \"c;d\" AS `y;z` FROM t", "SELECT 1");
        assertThat(HiveSqlNormaliser.statements("SELECT 'it\\'s;' FROM t;;  ;")).containsExactly("SELECT 'it\\'s;' FROM t");
    }

    @Test
    void classifiesStatements() {
        assertThat(HiveSqlNormaliser.normalise("use `Sales`")).isEqualTo(new HiveSqlNormaliser.Use("sales"));
        assertThat(HiveSqlNormaliser.normalise("SET a=b")).isEqualTo(new HiveSqlNormaliser.Skip("set"));
        assertThat(HiveSqlNormaliser.normalise("FROM t INSERT INTO u SELECT a"))
                .isInstanceOf(HiveSqlNormaliser.Unsupported.class);
    }

    @Test
    void rewritesHiveCreateTableIntoPlainDdlKeepingPartitionColumns() {
        assertThat(HiveSqlNormaliser.normalise("""
                CREATE EXTERNAL TABLE IF NOT EXISTS db.t (a STRING COMMENT 'x, (y)', m MAP<STRING,ARRAY<INT>>)
                COMMENT 'table' PARTITIONED BY (dt STRING, hr INT) CLUSTERED BY (a) INTO 4 BUCKETS
                ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' STORED AS ORC LOCATION '/x'
                TBLPROPERTIES ('k'='v')""".replace('\n', ' ')))
                .isEqualTo(new HiveSqlNormaliser.Parse("CREATE TABLE db.t (a STRING, m STRING, dt STRING, hr INT)"));
        assertThat(HiveSqlNormaliser.normalise("CREATE TABLE db.c STORED AS ORC AS SELECT a FROM t"))
                .isEqualTo(new HiveSqlNormaliser.Parse("CREATE TABLE db.c AS SELECT a FROM t"));
    }

    @Test
    void dropsRowDistributionClauses() {
        assertThat(HiveSqlNormaliser.normalise("SELECT a FROM t DISTRIBUTE BY a, b SORT BY a"))
                .isEqualTo(new HiveSqlNormaliser.Parse("SELECT a FROM t ORDER BY a"));
    }
}
