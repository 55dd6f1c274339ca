package io.batchyard.hiveql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HiveScriptTest {

    @Test
    void aScriptBecomesItsStatementsWithoutComments() {
        assertThat(HiveScript.statements(
                "use sales; -- c\n insert overwrite table t select a from s ; set x=1; select b from t"))
                .containsExactly("use sales", "insert overwrite table t select a from s", "set x=1",
                        "select b from t");
    }

    @Test
    void aSemicolonOrCommentMarkerInsideQuotesIsText() {
        assertThat(HiveScript.statements("SELECT 'a;b' AS x, \"c--d\" AS y, `e;f--g` FROM t; SELECT 2"))
                .containsExactly("SELECT 'a;b' AS x, \"c--d\" AS y, `e;f--g` FROM t", "SELECT 2");
        // An escaped quote does not end the literal; the ';' after it is still inside.
        assertThat(HiveScript.statements("SELECT 'it\\'s; -- not a comment' FROM t; SELECT 3"))
                .containsExactly("SELECT 'it\\'s; -- not a comment' FROM t", "SELECT 3");
    }

    @Test
    void blockCommentsGoWhetherOnOneLineOrMany() {
        assertThat(HiveScript.statements("SELECT /* a; b */ x FROM t;\n/* one\n; two */\nSELECT y/**/FROM u"))
                .containsExactly("SELECT x FROM t", "SELECT y FROM u");
        // Never closed: the rest of the text is comment.
        assertThat(HiveScript.statements("SELECT 1; /* open; SELECT 2")).containsExactly("SELECT 1");
    }

    @Test
    void emptyStatementsAndCommentOnlyTextsAreNothing() {
        assertThat(HiveScript.statements(";; ;\n;")).isEmpty();
        assertThat(HiveScript.statements("-- only a comment")).isEmpty();
        assertThat(HiveScript.statements("")).isEmpty();
        assertThat(HiveScript.statements("SELECT 1;;\n; SELECT 2;")).containsExactly("SELECT 1", "SELECT 2");
    }

    @Test
    void windowsLineEndsAreWhitespaceAndEndALineComment() {
        assertThat(HiveScript.statements("USE sales;\r\n-- the load\r\nINSERT INTO t\r\n  SELECT a\r\n  FROM s;\r\n"))
                .containsExactly("USE sales", "INSERT INTO t SELECT a FROM s");
        assertThat(HiveScript.statements("SELECT a -- trailing\r\nFROM s")).containsExactly("SELECT a FROM s");
    }

    @Test
    void whitespaceRunsBecomeOneSpace() {
        assertThat(HiveScript.statements("  SELECT\ta,\n\n   b\tFROM   t  ")).containsExactly("SELECT a, b FROM t");
    }
}
