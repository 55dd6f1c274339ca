package io.batchyard.client;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProblemsTest {

    @Test
    void aProblemCarriesItsCodeTitleAndDetail() {
        ProblemException e = Problems.of(409, """
                {"type":"https://batchyard.io/problems/104","title":"Parent process running","status":409,
                 "detail":"Parent Process is already running. pid=7","code":104}""");
        assertThat(e.status()).isEqualTo(409);
        assertThat(e.code()).isEqualTo(104);
        assertThat(e.title()).isEqualTo("Parent process running");
        assertThat(e.detail()).isEqualTo("Parent Process is already running. pid=7");
        assertThat(e.getMessage())
                .isEqualTo("code 104 (HTTP 409) Parent process running: Parent Process is already running. pid=7");
        assertThat(e.unavailable()).isFalse();
    }

    @Test
    void fieldErrorsAreAppendedToTheDetail() {
        ProblemException e = Problems.of(400, """
                {"status":400,"code":1,"title":"Invalid request","detail":"invalid",
                 "errors":[{"field":"category","message":"must not be blank"}]}""");
        assertThat(e.code()).isEqualTo(1);
        assertThat(e.detail()).isEqualTo("invalid; category: must not be blank");
    }

    @Test
    void aBodyThatIsNoProblemIsQuotedShortWithoutACode() {
        ProblemException e = Problems.of(502, "<html>" + "x".repeat(1000) + "</html>");
        assertThat(e.code()).isNull();
        assertThat(e.status()).isEqualTo(502);
        assertThat(e.detail()).hasSize(Problems.MAX_QUOTED + 1).startsWith("<html>").endsWith("…");
        assertThat(Problems.of(503, "").detail()).isNull();
        assertThat(Problems.of(503, null).unavailable()).isTrue();
    }

    @Test
    void aNonNumericCodeIsNoCode() {
        assertThat(Problems.of(500, "{\"code\":\"x\",\"detail\":\"d\"}").code()).isNull();
    }
}
