package io.batchyard.queue;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

    /**
     * Equality conditions of a list endpoint's optional filters: a column whose value is absent does not constrain the
     * rows. The parameter is named after its column ({@code p.table_id} binds {@code :p_table_id}).
     */
    protected record Filter(List<Map.Entry<String, Object>> present) {

        /** Pairs of column name and value, e.g. {@code of("process_id", processId, "batch_state", state)}. */
        public static Filter of(Object... columnsAndValues) {
            List<Map.Entry<String, Object>> present = new ArrayList<>();
            for (int i = 0; i < columnsAndValues.length; i += 2) {
                if (columnsAndValues[i + 1] != null) {
                    present.add(Map.entry((String) columnsAndValues[i], columnsAndValues[i + 1]));
                }
            }
            return new Filter(present);
        }

        public String where() {
            return present.isEmpty() ? "" : " WHERE " + String.join(" AND ",
                    present.stream().map(c -> c.getKey() + " = :" + parameter(c.getKey())).toList());
        }

        /** The filter's conditions and {@code condition} (e.g. {@link NativeRepository#visible}), as a WHERE clause. */
        public String where(String condition) {
            return where() + (present.isEmpty() ? " WHERE " : " AND ") + condition;
        }

        private static String parameter(String column) {
            return column.replace('.', '_');
        }
    }

    /** Binds the values of a filter's present conditions. */
    protected static <R> Mutiny.SelectionQuery<R> bind(Mutiny.SelectionQuery<R> q, Filter filter) {
        filter.present().forEach(c -> q.setParameter(Filter.parameter(c.getKey()), c.getValue()));
        return q;
    }

    /**
     * A condition: the application id {@code expression} yields is one the caller may see (parameters
     * {@code :visible_all} and {@code :visible_apps}, bound by {@link #bind(Mutiny.SelectionQuery, Visibility)}). A
     * null application, one this service does not know, is seen only when everything is.
     */
    protected static String visible(String expression) {
        return "(CAST(:visible_all AS boolean) OR " + expression
                + " = ANY(CAST(string_to_array(:visible_apps, ',') AS bigint[])))";
    }

    /**
     * The application a process belongs to, for a process id {@code expression} of the outer query: its parent's for a
     * step, its own for a parent; null for a process the read model does not know.
     */
    protected static String applicationOfProcess(String expression) {
        return "(SELECT COALESCE(par.application_id, d.application_id) FROM process_definition d"
                + " LEFT JOIN process_definition par ON par.process_id = d.parent_process_id"
                + " WHERE d.process_id = " + expression + ")";
    }

    /** Binds the parameters of {@link #visible(String)}. */
    protected static <R> Mutiny.SelectionQuery<R> bind(Mutiny.SelectionQuery<R> q, Visibility visibility) {
        return q.setParameter("visible_all", visibility.all()).setParameter("visible_apps", visibility.csv());
    }
}
