package io.batchyard.persistence;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.persistence.Tuple;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.hibernate.reactive.mutiny.Mutiny;

/**
 * The one base of every repository that writes SQL: native statements on the session of the calling service method
 * ({@code @WithTransaction} or {@code @WithSession}), so every statement of a use case runs in its transaction.
 * Parameters are {@code :name} placeholders ({@link Params}); rows come back as {@link Row}s read by column name and
 * are turned into records by a {@link RowMapper} written once per row type. Repositories are the only classes that
 * hold SQL; they never open or end a transaction themselves.
 */
public abstract class SqlRepository {

    /** Every row of a query, each mapped by name. */
    protected static <T> Uni<List<T>> list(String sql, Params params, RowMapper<T> mapper) {
        return session(s -> bind(s.createNativeQuery(sql, Tuple.class), params).getResultList())
                .map(tuples -> tuples.stream().map(t -> mapper.map(new Row(t))).toList());
    }

    /** The first row of a query, if it returned any. */
    protected static <T> Uni<Optional<T>> first(String sql, Params params, RowMapper<T> mapper) {
        return list(sql, params, mapper).map(rows -> rows.stream().findFirst());
    }

    /** The values of a one-column query, e.g. ids. */
    protected static <T> Uni<List<T>> values(String sql, Class<T> type, Params params) {
        return session(s -> bind(s.createNativeQuery(sql, type), params).getResultList());
    }

    /** The value of a one-column query, if it returned a row. */
    protected static <T> Uni<Optional<T>> value(String sql, Class<T> type, Params params) {
        return values(sql, type, params).map(values -> values.stream().findFirst());
    }

    /** A count, or any query that always returns exactly one row of one column. */
    protected static <T> Uni<T> single(String sql, Class<T> type, Params params) {
        return session(s -> bind(s.createNativeQuery(sql, type), params).getSingleResult());
    }

    /** Runs an INSERT, UPDATE or DELETE without RETURNING; answers the number of rows it changed. */
    protected static Uni<Integer> update(String sql, Params params) {
        return session(s -> bind(s.createNativeQuery(sql), params).executeUpdate());
    }

    private static <Q extends Mutiny.AbstractQuery> Q bind(Q query, Params params) {
        params.values().forEach(query::setParameter);
        return query;
    }

    private static <T> Uni<T> session(Function<Mutiny.Session, Uni<T>> work) {
        return Panache.getSession().chain(s -> work.apply(s));
    }
}
