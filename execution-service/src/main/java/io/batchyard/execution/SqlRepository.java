package io.batchyard.execution;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.hibernate.reactive.mutiny.Mutiny;

/**
 * Native SQL on the session of the caller's {@code @WithSession}/{@code @WithTransaction}: the SQL text of each
 * repository stays as it was, with {@code :name} parameters. A parameter that may be null is written
 * {@code CAST(:x AS type)} in the SQL, because PostgreSQL cannot infer the type of an untyped null.
 */
public abstract class SqlRepository {

    /** Parameters by name; unlike {@code Map.of}, values may be null. */
    public static final class Params {
        private final Map<String, Object> values = new HashMap<>();

        public Params and(String name, Object value) {
            values.put(name, value);
            return this;
        }
    }

    protected static Params params(String name, Object value) {
        return new Params().and(name, value);
    }

    protected static Params none() {
        return new Params();
    }

    protected Uni<List<Object[]>> rows(String sql, Params params) {
        return session(s -> bind(s.createNativeQuery(sql, Object[].class), params).getResultList());
    }

    protected <T> Uni<List<T>> rows(String sql, Params params, Function<Object[], T> mapper) {
        return rows(sql, params).map(rows -> rows.stream().map(mapper).toList());
    }

    protected <T> Uni<Optional<T>> row(String sql, Params params, Function<Object[], T> mapper) {
        return rows(sql, params, mapper).map(rows -> rows.stream().findFirst());
    }

    /** A one-column result, e.g. {@code count(*)} as {@code Long}. */
    protected <T> Uni<List<T>> values(String sql, Class<T> type, Params params) {
        return session(s -> bind(s.createNativeQuery(sql, type), params).getResultList());
    }

    protected <T> Uni<T> value(String sql, Class<T> type, Params params) {
        return session(s -> bind(s.createNativeQuery(sql, type), params).getSingleResult());
    }

    /** Runs an INSERT, UPDATE or DELETE and returns the number of rows it changed. */
    protected Uni<Integer> update(String sql, Params params) {
        return session(s -> bind(s.createNativeQuery(sql), params).executeUpdate());
    }

    private static <Q extends Mutiny.AbstractQuery> Q bind(Q query, Params params) {
        params.values.forEach(query::setParameter);
        return query;
    }

    private static <T> Uni<T> session(Function<Mutiny.Session, Uni<T>> work) {
        return Panache.getSession().chain(s -> work.apply(s));
    }
}
