package io.batchyard.persistence;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.function.Function;

/**
 * Runs one reactive step per item, each after the previous one completed: a Hibernate Reactive session takes one
 * statement at a time, so steps of one use case never overlap. A stream keeps the call stack flat however many items
 * there are, where a hand-built chain of Unis would nest once per item.
 */
public final class InOrder {

    private InOrder() {
    }

    /** Applies {@code step} to every item in order. */
    public static <T> Uni<Void> each(Iterable<T> items, Function<? super T, ? extends Uni<?>> step) {
        return Multi.createFrom().iterable(items)
                .onItem().transformToUniAndConcatenate(item -> step.apply(item).replaceWith(Boolean.TRUE))
                .collect().last().replaceWithVoid();
    }

    /** The step's results, in the items' order; a step that answers null adds nothing (use {@link #each} for those). */
    public static <T, R> Uni<List<R>> map(Iterable<T> items, Function<? super T, ? extends Uni<? extends R>> step) {
        return Multi.createFrom().iterable(items)
                .onItem().transformToUniAndConcatenate(step::apply)
                .collect().asList();
    }
}
