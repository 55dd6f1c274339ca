package io.batchyard.eventing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class RecordBatchTest {

    /** A scope that notes its name whenever work runs in it. */
    private static RecordBatch.Scope named(String name, List<String> entered) {
        return new RecordBatch.Scope() {
            @Override
            public <R> Uni<R> around(Supplier<? extends Uni<R>> work) {
                return Uni.createFrom().deferred(() -> {
                    entered.add(name);
                    return work.get();
                });
            }
        };
    }

    @Test
    void eachPayloadsWorkRunsInTheScopeAtItsPosition() {
        List<String> entered = new ArrayList<>();
        RecordBatch<String> batch = RecordBatch.scoped(List.of("a", "b"), List.of(named("A", entered),
                named("B", entered)));
        assertThat(batch.around(1, () -> Uni.createFrom().item(batch.get(1))).await().indefinitely()).isEqualTo("b");
        assertThat(entered).containsExactly("B");
    }

    @Test
    void aFilteredBatchKeepsEachRemainingPayloadsOwnScope() {
        List<String> entered = new ArrayList<>();
        RecordBatch<String> batch = RecordBatch.scoped(List.of("a", "skip", "c"), List.of(named("A", entered),
                named("SKIP", entered), named("C", entered)));
        RecordBatch<String> kept = batch.filter(p -> !p.equals("skip"));
        assertThat(kept.payloads()).containsExactly("a", "c");
        kept.around(1, () -> Uni.createFrom().voidItem()).await().indefinitely();
        assertThat(entered).containsExactly("C");
    }

    @Test
    void payloadsWithoutScopesRunTheirWorkAsIsAndCannotBeChanged() {
        RecordBatch<String> batch = RecordBatch.of(List.of("a"));
        assertThat(batch.around(0, () -> Uni.createFrom().item("done")).await().indefinitely()).isEqualTo("done");
        assertThatThrownBy(() -> batch.payloads().add("b")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void payloadsAndScopesMustPair() {
        assertThatThrownBy(() -> RecordBatch.scoped(List.of("a", "b"), List.of(named("A", new ArrayList<>()))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("2 payloads but 1 scopes");
    }
}
