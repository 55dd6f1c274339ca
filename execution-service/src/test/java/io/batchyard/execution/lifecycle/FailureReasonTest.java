package io.batchyard.execution.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.batchyard.api.ApiException;
import io.batchyard.execution.runs.FailureReason;
import org.junit.jupiter.api.Test;

class FailureReasonTest {

    @Test
    void aTextTheServiceWordsItselfIsCutToTheLimitNeverRefused() {
        assertThat(FailureReason.truncated(3, "short")).isEqualTo(new FailureReason(3, "short"));
        assertThat(FailureReason.truncated(null, null)).isEqualTo(FailureReason.NONE);
        String exact = "x".repeat(FailureReason.MAX_TEXT);
        assertThat(FailureReason.truncated(1, exact).text()).isEqualTo(exact);

        String cut = FailureReason.truncated(1, "y".repeat(5000)).text();
        assertThat(cut).hasSize(FailureReason.MAX_TEXT).endsWith("…");
        cut.chars().limit(FailureReason.MAX_TEXT - 1).forEach(c -> assertThat((char) c).isEqualTo('y'));
    }

    @Test
    void aCutNeverSplitsASurrogatePair() {
        // 1998 letters, then emoji: the pair at 1998/1999 would be split by a plain cut at 1999
        String text = "a".repeat(FailureReason.MAX_TEXT - 2) + "\uD83D\uDE00".repeat(10);
        String cut = FailureReason.truncated(null, text).text();
        assertThat(cut.length()).isLessThanOrEqualTo(FailureReason.MAX_TEXT);
        assertThat(Character.isHighSurrogate(cut.charAt(cut.length() - 2))).isFalse();
        assertThat(cut).isEqualTo("a".repeat(FailureReason.MAX_TEXT - 2) + "…");
    }

    @Test
    void aCallersTextThatCouldNotBeStoredIsAnInvalidRequest() {
        new FailureReason(null, null).requireStorable();
        new FailureReason(7, "x".repeat(FailureReason.MAX_TEXT)).requireStorable();
        assertThatThrownBy(() -> new FailureReason(7, "x".repeat(FailureReason.MAX_TEXT + 1)).requireStorable())
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.code()).isEqualTo(1);
                    assertThat(e.status()).isEqualTo(400);
                });
        assertThatThrownBy(() -> new FailureReason(null, "a\0b").requireStorable())
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.code()).isEqualTo(1));
    }
}
