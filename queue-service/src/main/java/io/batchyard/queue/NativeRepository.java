package io.batchyard.queue;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.hibernate.reactive.mutiny.Mutiny;

/**
 * What queue-service's repositories share: native SQL on the session of the caller's transaction
 * ({@code @WithTransaction}/{@code @WithSession} on the service method), with {@code :name} parameters.
 */
public abstract class NativeRepository {

    /** Rows of a query, each mapped from its columns. */
    protected static <T> Uni<List<T>> rows(String sql, UnaryOperator<Mutiny.SelectionQuery<Object[]>> bind,
                                           Function<Object[], T> map) {
        return Panache.getSession().chain(s -> bind.apply(s.createNativeQuery(sql, Object[].class)).getResultList())
                .map(rows -> rows.stream().map(map).toList());
    }

    /** The first row of a query, if any. */
    protected static <T> Uni<Optional<T>> first(String sql, UnaryOperator<Mutiny.SelectionQuery<Object[]>> bind,
                                                Function<Object[], T> map) {
        return rows(sql, bind, map).map(rows -> rows.stream().findFirst());
    }

    /** Values of a one-column query. */
    protected static <T> Uni<List<T>> values(String sql, Class<T> type, UnaryOperator<Mutiny.SelectionQuery<T>> bind) {
        return Panache.getSession().chain(s -> bind.apply(s.createNativeQuery(sql, type)).getResultList());
    }

    /** The value of a one-column query, if it returned a row. */
    protected static <T> Uni<Optional<T>> value(String sql, Class<T> type, UnaryOperator<Mutiny.SelectionQuery<T>> bind) {
        return values(sql, type, bind).map(values -> values.stream().findFirst());
    }

    /** Rows changed by a statement. */
    protected static Uni<Integer> update(String sql, UnaryOperator<Mutiny.MutationQuery> bind) {
        return Panache.getSession().chain(s -> bind.apply(s.createNativeQuery(sql)).executeUpdate());
    }
}
