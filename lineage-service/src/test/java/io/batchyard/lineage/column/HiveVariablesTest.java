package io.batchyard.lineage.column;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HiveVariablesTest {

    @Test
    void aNamespacedReferenceTakesItsNamespacedValueElseThePlainOne() {
        HiveVariables v = new HiveVariables(Map.of("dt", "2024-05-01", "hiveconf:dt", "2024-06-01", "db", "sales",
                "env:HOME", "/home/etl"));
        assertThat(v.substitute("SELECT '${hiveconf:dt}', '${hivevar:dt}', '${env:HOME}' FROM ${hivevar:db}.t").text())
                .isEqualTo("SELECT '2024-06-01', '2024-05-01', '/home/etl' FROM sales.t");
    }

    @Test
    void aBareReferenceTakesThePlainValueThenHivevarThenHiveconf() {
        assertThat(new HiveVariables(Map.of("hiveconf:x", "conf", "hivevar:x", "var")).substitute("${x}").text())
                .isEqualTo("var");
        assertThat(new HiveVariables(Map.of("hiveconf:x", "conf")).substitute("${x}").text()).isEqualTo("conf");
        assertThat(new HiveVariables(Map.of("x", "plain", "hivevar:x", "var")).substitute("${x}").text())
                .isEqualTo("plain");
    }

    @Test
    void aScriptsSetDefinesAVariableForTheStatementsAfterIt() {
        HiveVariables v = new HiveVariables(Map.of("hivevar:db", "given"));
        assertThat(v.substitute("SELECT a FROM ${hivevar:db}.t").text()).isEqualTo("SELECT a FROM given.t");
        v.define("SET hivevar:db=own");
        v.define("set run_date = 2024-05-01");
        v.define("SET hive.exec.dynamic.partition.mode=nonstrict");
        assertThat(v.substitute("SELECT a FROM ${hivevar:db}.t WHERE d = '${hiveconf:run_date}'").text())
                .isEqualTo("SELECT a FROM own.t WHERE d = '2024-05-01'");
        assertThat(v.substitute("SELECT '${hiveconf:hive.exec.dynamic.partition.mode}'").text())
                .isEqualTo("SELECT 'nonstrict'");
    }

    @Test
    void valuesReferringToVariablesAreExpandedAndACycleStops() {
        assertThat(new HiveVariables(Map.of("a", "${b}_x", "b", "${c}", "c", "deep")).substitute("FROM ${a}").text())
                .isEqualTo("FROM deep_x");
        HiveVariables cycle = new HiveVariables(Map.of("a", "${b}", "b", "${a}"));
        HiveVariables.Substituted s = cycle.substitute("SELECT ${a}");
        assertThat(s.text()).startsWith("SELECT '${");
        assertThat(s.unresolved()).hasSize(1);
    }

    @Test
    void valuesThatWouldGrowAStatementPastTheLongestQueryLeaveItAsWritten() {
        HiveVariables.Substituted s = new HiveVariables(Map.of("x", "${x}${x}")).substitute("SELECT '${x}'");
        assertThat(s.tooLong()).isTrue();
        assertThat(s.text()).isEqualTo("SELECT '${x}'");
        assertThat(new HiveVariables(Map.of("x", "y")).substitute("SELECT '${x}'").tooLong()).isFalse();
    }

    @Test
    void anUnresolvedVariableIsAnOpaqueNameWhereANameGoesAndAnOpaqueLiteralElsewhere() {
        HiveVariables none = new HiveVariables(null);
        HiveVariables.Substituted s = none.substitute("INSERT INTO TABLE ${hivevar:db}.t_${env} "
                + "SELECT a, ${x} AS ${alias}, '${in_string}' FROM db_${env}.s JOIN ${other} o ON a = ${n}");
        assertThat(s.text()).isEqualTo("INSERT INTO TABLE `${hivevar:db}`.`t_${env}` "
                + "SELECT a, '${x}' AS `${alias}`, '${in_string}' FROM `db_${env}`.s JOIN `${other}` o ON a = '${n}'");
        assertThat(s.unresolved()).containsExactly("${hivevar:db}", "${env}", "${x}", "${alias}", "${in_string}",
                "${env}", "${other}", "${n}");
        assertThat(none.substitute("SELECT 1").unresolved()).isEqualTo(List.of());
    }
}
