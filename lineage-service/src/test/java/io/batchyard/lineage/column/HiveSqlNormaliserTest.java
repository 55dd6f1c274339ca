package io.batchyard.lineage.column;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
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
                .isEqualTo(new HiveSqlNormaliser.MultiInsert(List.of("INSERT INTO u SELECT a FROM t")));
        assertThat(HiveSqlNormaliser.normalise("FROM t")).isInstanceOf(HiveSqlNormaliser.Unsupported.class);
    }

    @Test
    void splitsAMultiInsertIntoOneInsertPerTargetEachWithItsOwnClauses() {
        assertThat(HiveSqlNormaliser.multiInsert("FROM (SELECT a, b FROM s WHERE a IN (SELECT x FROM y)) src "
                + "INSERT OVERWRITE TABLE t1 PARTITION (dt='x') SELECT a, 'where' WHERE b > 1 GROUP BY a "
                + "INSERT INTO TABLE t2 SELECT count(*) AS n, (SELECT max(z) FROM w WHERE z > 0) "
                + "INSERT INTO TABLE t3 SELECT b LIMIT 5")).containsExactly(
                "INSERT OVERWRITE TABLE t1 PARTITION (dt='x') SELECT a, 'where' "
                        + "FROM (SELECT a, b FROM s WHERE a IN (SELECT x FROM y)) src WHERE b > 1 GROUP BY a",
                "INSERT INTO TABLE t2 SELECT count(*) AS n, (SELECT max(z) FROM w WHERE z > 0) "
                        + "FROM (SELECT a, b FROM s WHERE a IN (SELECT x FROM y)) src",
                "INSERT INTO TABLE t3 SELECT b FROM (SELECT a, b FROM s WHERE a IN (SELECT x FROM y)) src LIMIT 5");
        assertThat(HiveSqlNormaliser.multiInsert("FROM t x SELECT x.a WHERE x.b = 1"))
                .containsExactly("SELECT x.a FROM t x WHERE x.b = 1");
        assertThat(HiveSqlNormaliser.multiInsert("FROM t INSERT INTO u VALUES (1)")).isEmpty();
    }

    @Test
    void keepsSemicolonsAndDashesInsideStringsAndIdentifiers() {
        assertThat(HiveSqlNormaliser.statements("SELECT '--;' AS a, `x--;y` FROM t; -- c; d\nSELECT 2;"))
                .containsExactly("SELECT '--;' AS a, `x--;y` FROM t", "SELECT 2");
        assertThat(HiveSqlNormaliser.statements("SELECT 1;\n-- only a comment; here\n;SELECT 2"))
                .containsExactly("SELECT 1", "SELECT 2");
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
