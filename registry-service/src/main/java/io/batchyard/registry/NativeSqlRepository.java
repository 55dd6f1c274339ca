package io.batchyard.registry;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.hibernate.reactive.mutiny.Mutiny;

/**
 * Native SQL on the session that the calling service method opened ({@code @WithTransaction} or {@code @WithSession}),
 * so every statement of a use case runs in its transaction. Parameters are {@code :name} placeholders, given as
 * name/value pairs; a parameter that may be null is cast in the SQL, since PostgreSQL cannot infer the type of a
 * bare {@code :x IS NULL}.
 */
public abstract class NativeSqlRepository {

    protected static Uni<List<Object[]>> rows(String sql, Object... params) {
        return Panache.getSession()
                .chain(s -> bind(s.createNativeQuery(sql, Object[].class), params).getResultList());
    }

    protected static Uni<Optional<Object[]>> row(String sql, Object... params) {
        return rows(sql, params).map(list -> list.stream().findFirst());
    }

    protected static <T> Uni<T> scalar(String sql, Class<T> type, Object... params) {
        return Panache.getSession()
                .chain(s -> bind(s.createNativeQuery(sql, type), params).getSingleResult());
    }

    protected static <T> Uni<List<T>> scalars(String sql, Class<T> type, Object... params) {
        return Panache.getSession()
                .chain(s -> bind(s.createNativeQuery(sql, type), params).getResultList());
    }

    /** Runs an INSERT, UPDATE or DELETE; returns the number of rows it changed. */
    protected static Uni<Integer> update(String sql, Object... params) {
        return Panache.getSession()
                .chain(s -> {
                    Mutiny.Query<Object> query = s.createNativeQuery(sql);
                    return bind(query, params).executeUpdate();
                });
    }

    /** {@code params} followed by {@code more}: for statements that share part of their parameters. */
    protected static Object[] with(Object[] params, Object... more) {
        Object[] all = Arrays.copyOf(params, params.length + more.length);
        System.arraycopy(more, 0, all, params.length, more.length);
        return all;
    }

    private static <Q extends Mutiny.AbstractQuery> Q bind(Q query, Object[] params) {
        if (params.length % 2 != 0) {
            throw new IllegalArgumentException("parameters come as name/value pairs");
        }
        for (int i = 0; i < params.length; i += 2) {
            query.setParameter((String) params[i], params[i + 1]);
        }
        return query;
    }
}
