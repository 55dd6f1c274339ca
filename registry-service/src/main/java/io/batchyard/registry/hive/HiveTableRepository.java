package io.batchyard.registry.hive;

import io.batchyard.api.access.Caller;
import io.batchyard.persistence.Paging;
import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.batchyard.persistence.Where;
import io.batchyard.registry.access.ReadFilter;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;

/** SQL over {@code hive_table}; statements join the caller's session. */
@ApplicationScoped
public class HiveTableRepository extends SqlRepository {

    private static final String COLUMNS = """
            table_id, application_id, comments, location_type, db_name, batch_id_partition_col, table_name, table_type,
            ddl, created_at, updated_at""";

    public Uni<HiveTable> insert(HiveTableRequest r) {
        return first("""
                        INSERT INTO hive_table (application_id, comments, location_type, db_name,
                          batch_id_partition_col, table_name, table_type, ddl) VALUES (:applicationId,
                          CAST(:comments AS text), :locationType, :dbName, CAST(:batchIdPartitionCol AS text),
                          :tableName, :type, :ddl) RETURNING\s""" + COLUMNS,
                requestParams(r), HiveTableRepository::map)
                .map(Optional::orElseThrow);
    }

    public Uni<Optional<HiveTable>> update(long id, HiveTableRequest r) {
        return first("""
                        UPDATE hive_table SET application_id = :applicationId,
                          comments = CAST(:comments AS text), location_type = :locationType,
                          db_name = :dbName, batch_id_partition_col = CAST(:batchIdPartitionCol AS text),
                          table_name = :tableName, table_type = :type, ddl = :ddl, updated_at = now()
                        WHERE table_id = :id RETURNING\s""" + COLUMNS, requestParams(r).and("id", id),
                HiveTableRepository::map);
    }

    public Uni<Optional<HiveTable>> find(long id) {
        return first("SELECT " + COLUMNS + " FROM hive_table WHERE table_id = :id", Params.of("id", id),
                HiveTableRepository::map);
    }

    /** A page of the tables in {@code dbName} (all when null) that {@code reader} may read. */
    public Uni<List<HiveTable>> list(String dbName, Caller reader, int limit, int offset) {
        Where where = matching(dbName, reader);
        return list("SELECT " + COLUMNS + " FROM hive_table" + where.sql() + " ORDER BY table_id" + Paging.CLAUSE,
                Params.none().and(where.params()).and(new Paging(limit, offset).params()), HiveTableRepository::map);
    }

    public Uni<Long> count(String dbName, Caller reader) {
        Where where = matching(dbName, reader);
        return single("SELECT count(*) FROM hive_table" + where.sql(), Long.class, where.params());
    }

    private static Where matching(String dbName, Caller reader) {
        return Where.all().eq("db_name", dbName).and(ReadFilter.condition("hive_table.application_id"),
                ReadFilter.params(reader));
    }

    public Uni<Boolean> nameTaken(String dbName, String tableName, Long exceptId) {
        return single("""
                        SELECT count(*) FROM hive_table WHERE db_name = :db AND table_name = :table
                          AND table_id IS DISTINCT FROM CAST(:except AS bigint)""",
                Long.class, Params.of("db", dbName).and("table", tableName).and("except", exceptId))
                .map(n -> n > 0);
    }

    /** How many ETL drivers use the table as raw table, base table or raw view. */
    public Uni<Long> uses(long id) {
        return single("""
                        SELECT count(*) FROM etl_driver
                        WHERE raw_table_id = :id OR base_table_id = :id OR raw_view_id = :id""", Long.class,
                Params.of("id", id));
    }

    public Uni<Boolean> delete(long id) {
        return update("DELETE FROM hive_table WHERE table_id = :id", Params.of("id", id)).map(n -> n > 0);
    }

    private static Params requestParams(HiveTableRequest r) {
        return Params.of("applicationId", r.applicationId()).and("comments", r.comments())
                .and("locationType", r.locationType()).and("dbName", r.dbName())
                .and("batchIdPartitionCol", r.batchIdPartitionCol()).and("tableName", r.tableName())
                .and("type", r.type()).and("ddl", r.ddl());
    }

    private static HiveTable map(Row r) {
        return new HiveTable(r.getLong("table_id"), r.getLong("application_id"), r.getString("comments"),
                r.getString("location_type"), r.getString("db_name"), r.getString("batch_id_partition_col"),
                r.getString("table_name"), r.getString("table_type"), r.getString("ddl"), r.getTime("created_at"),
                r.getTime("updated_at"));
    }
}
