package io.batchyard.queue;

import io.smallrye.mutiny.Uni;
import java.util.function.Function;

/** Steps over a collection one after the other: a reactive session runs one statement at a time. */
public final class Sequential {

    private Sequential() {
    }

    public static <T> Uni<Void> each(Iterable<T> items, Function<? super T, ? extends Uni<?>> step) {
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (T item : items) {
            chain = chain.chain(() -> step.apply(item)).replaceWithVoid();
        }
        return chain;
    }
}
