package io.batchyard.lineage;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.function.Function;

/**
 * Runs one database step per item, each after the previous one completed. A reactive session takes one statement at a
 * time, and the graph writer needs each node id before the next statement; a stream keeps the call stack flat however
 * many items there are, where a hand-built chain of Unis would nest once per item.
 */
public final class InOrder {

    private InOrder() {
    }

    public static <T> Uni<Void> each(Iterable<T> items, Function<? super T, Uni<?>> step) {
        return Multi.createFrom().iterable(items)
                .onItem().transformToUniAndConcatenate(item -> step.apply(item).replaceWith(Boolean.TRUE))
                .collect().last().replaceWithVoid();
    }

    /** The step's results, in the items' order. */
    public static <T, R> Uni<List<R>> map(Iterable<T> items, Function<T, Uni<? extends R>> step) {
        return Multi.createFrom().iterable(items)
                .onItem().transformToUniAndConcatenate(step)
                .collect().asList();
    }
}
