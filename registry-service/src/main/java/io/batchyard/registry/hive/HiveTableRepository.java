package io.batchyard.registry.hive;

import io.batchyard.api.access.Caller;
import io.batchyard.registry.NativeSqlRepository;
import io.batchyard.registry.application.ApplicationRepository;
import io.batchyard.persistence.Columns;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;

/** SQL over {@code hive_table}; statements join the caller's session. */
@ApplicationScoped
public class HiveTableRepository extends NativeSqlRepository {

    private static final String COLUMNS = """
            table_id, application_id, comments, location_type, db_name, batch_id_partition_col, table_name, table_type,
            ddl, created_at, updated_at""";

    public Uni<HiveTable> insert(HiveTableRequest r) {
        return rows("""
                        INSERT INTO hive_table (application_id, comments, location_type, db_name,
                          batch_id_partition_col, table_name, table_type, ddl) VALUES (:applicationId,
                          CAST(:comments AS text), :locationType, :dbName, CAST(:batchIdPartitionCol AS text),
                          :tableName, :type, :ddl) RETURNING\s""" + COLUMNS,
                requestParams(r))
                .map(list -> map(list.get(0)));
    }

    public Uni<Optional<HiveTable>> update(long id, HiveTableRequest r) {
        return row("""
                        UPDATE hive_table SET application_id = :applicationId,
                          comments = CAST(:comments AS text), location_type = :locationType,
                          db_name = :dbName, batch_id_partition_col = CAST(:batchIdPartitionCol AS text),
                          table_name = :tableName, table_type = :type, ddl = :ddl, updated_at = now()
                        WHERE table_id = :id RETURNING\s""" + COLUMNS, with(requestParams(r), "id", id))
                .map(found -> found.map(HiveTableRepository::map));
    }

    public Uni<Optional<HiveTable>> find(long id) {
        return row("SELECT " + COLUMNS + " FROM hive_table WHERE table_id = :id", "id", id)
                .map(r -> r.map(HiveTableRepository::map));
    }

    /** A page of the tables in {@code dbName} (all when null) that {@code reader} may read. */
    public Uni<List<HiveTable>> list(String dbName, Caller reader, int limit, int offset) {
        return rows("SELECT " + COLUMNS + " FROM hive_table WHERE " + MATCHES + " ORDER BY table_id"
                        + " LIMIT :limit OFFSET :offset",
                with(ApplicationRepository.readerParamPairs(reader), "db", dbName, "limit", limit, "offset", offset))
                .map(list -> list.stream().map(HiveTableRepository::map).toList());
    }

    public Uni<Long> count(String dbName, Caller reader) {
        return scalar("SELECT count(*) FROM hive_table WHERE " + MATCHES, Long.class,
                with(ApplicationRepository.readerParamPairs(reader), "db", dbName));
    }

    private static final String MATCHES = "(CAST(:db AS text) IS NULL OR db_name = CAST(:db AS text)) AND "
            + ApplicationRepository.readableBy("hive_table.application_id");

    public Uni<Boolean> nameTaken(String dbName, String tableName, Long exceptId) {
        return scalar("""
                        SELECT count(*) FROM hive_table WHERE db_name = :db AND table_name = :table
                          AND table_id IS DISTINCT FROM CAST(:except AS bigint)""",
                Long.class, "db", dbName, "table", tableName, "except", exceptId)
                .map(n -> n > 0);
    }

    /** How many ETL drivers use the table as raw table, base table or raw view. */
    public Uni<Long> uses(long id) {
        return scalar("""
                        SELECT count(*) FROM etl_driver
                        WHERE raw_table_id = :id OR base_table_id = :id OR raw_view_id = :id""", Long.class, "id", id);
    }

    public Uni<Boolean> delete(long id) {
        return update("DELETE FROM hive_table WHERE table_id = :id", "id", id).map(n -> n > 0);
    }

    private static Object[] requestParams(HiveTableRequest r) {
        return new Object[] {"applicationId", r.applicationId(), "comments", r.comments(),
                "locationType", r.locationType(), "dbName", r.dbName(),
                "batchIdPartitionCol", r.batchIdPartitionCol(), "tableName", r.tableName(), "type", r.type(),
                "ddl", r.ddl()};
    }

    private static HiveTable map(Object[] r) {
        return new HiveTable(Columns.toLong(r[0]), Columns.toLong(r[1]), Columns.string(r[2]), Columns.string(r[3]),
                Columns.string(r[4]), Columns.string(r[5]), Columns.string(r[6]), Columns.string(r[7]),
                Columns.string(r[8]), Columns.time(r[9]), Columns.time(r[10]));
    }
}
