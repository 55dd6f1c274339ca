package io.batchyard.registry.hive;

import static io.batchyard.api.CommonErrors.NOT_FOUND;
import static io.batchyard.registry.RegistryError.DUPLICATE;
import static io.batchyard.registry.RegistryError.STILL_REFERENCED;

import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.registry.Rows;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.Optional;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/** Hive table and view DDLs that data-load processes create (BDRE HIVE_TABLES). */
@Path("/hive-tables")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "hive tables")
public class HiveTableResource {

    public record HiveTableRequest(
            @Size(max = 256) String comments,
            @NotBlank @Size(max = 45) String locationType,
            @NotBlank @Size(max = 45) @Pattern(regexp = "[A-Za-z0-9_]+") String dbName,
            @Size(max = 45) String batchIdPartitionCol,
            @NotBlank @Size(max = 45) @Pattern(regexp = "[A-Za-z0-9_]+") String tableName,
            @NotNull @Pattern(regexp = "TABLE|VIEW") String type,
            @NotBlank @Size(max = 65536) String ddl) {
    }

    public record HiveTable(long id, String comments, String locationType, String dbName, String batchIdPartitionCol,
                            String tableName, String type, String ddl, OffsetDateTime createdAt,
                            OffsetDateTime updatedAt) {
        static HiveTable map(ResultSet rs) throws SQLException {
            return new HiveTable(rs.getLong("table_id"), rs.getString("comments"), rs.getString("location_type"),
                    rs.getString("db_name"), rs.getString("batch_id_partition_col"), rs.getString("table_name"),
                    rs.getString("table_type"), rs.getString("ddl"), Rows.timestamp(rs, "created_at"),
                    Rows.timestamp(rs, "updated_at"));
        }
    }

    @Inject
    Jdbi jdbi;

    @POST
    public Response create(@Valid @NotNull HiveTableRequest r) {
        HiveTable created = jdbi.inTransaction(tx -> {
            requireUniqueName(tx, r, null);
            return tx.createQuery("""
                            INSERT INTO hive_table (comments, location_type, db_name, batch_id_partition_col, table_name,
                              table_type, ddl) VALUES (:comments, :locationType, :dbName, :batchIdPartitionCol, :tableName,
                              :type, :ddl) RETURNING *""")
                    .bindMethods(r).map((rs, ctx) -> HiveTable.map(rs)).one();
        });
        return Response.created(URI.create("/hive-tables/" + created.id())).entity(created).build();
    }

    @PUT
    @Path("{id}")
    public HiveTable update(@PathParam("id") long id, @Valid @NotNull HiveTableRequest r) {
        return jdbi.inTransaction(tx -> {
            requireUniqueName(tx, r, id);
            return tx.createQuery("""
                            UPDATE hive_table SET comments = :comments, location_type = :locationType, db_name = :dbName,
                              batch_id_partition_col = :batchIdPartitionCol, table_name = :tableName, table_type = :type,
                              ddl = :ddl, updated_at = now() WHERE table_id = :id RETURNING *""")
                    .bindMethods(r).bind("id", id).map((rs, ctx) -> HiveTable.map(rs)).findOne()
                    .orElseThrow(() -> NOT_FOUND.exception("hive table " + id + " does not exist"));
        });
    }

    @GET
    public Page<HiveTable> list(@Valid @BeanParam PageRequest page, @QueryParam("dbName") @Size(max = 45) String dbName) {
        return jdbi.withHandle(h -> Page.of(
                h.createQuery("SELECT * FROM hive_table WHERE (:db IS NULL OR db_name = :db) ORDER BY table_id "
                                + "LIMIT :limit OFFSET :offset")
                        .bindByType("db", dbName, String.class).bind("limit", page.limit()).bind("offset", page.offset())
                        .map((rs, ctx) -> HiveTable.map(rs)).list(),
                h.createQuery("SELECT count(*) FROM hive_table WHERE (:db IS NULL OR db_name = :db)")
                        .bindByType("db", dbName, String.class).mapTo(Long.class).one(),
                page));
    }

    @GET
    @Path("{id}")
    public HiveTable get(@PathParam("id") long id) {
        return jdbi.withHandle(h -> find(h, id)).orElseThrow(() -> NOT_FOUND.exception("hive table " + id + " does not exist"));
    }

    @DELETE
    @Path("{id}")
    public Response delete(@PathParam("id") long id) {
        jdbi.useTransaction(tx -> {
            long uses = tx.createQuery("""
                            SELECT count(*) FROM etl_driver
                            WHERE raw_table_id = :id OR base_table_id = :id OR raw_view_id = :id""")
                    .bind("id", id).mapTo(Long.class).one();
            if (uses > 0) {
                throw STILL_REFERENCED.exception("hive table " + id + " is used by " + uses + " ETL driver(s)");
            }
            if (tx.createUpdate("DELETE FROM hive_table WHERE table_id = :id").bind("id", id).execute() == 0) {
                throw NOT_FOUND.exception("hive table " + id + " does not exist");
            }
        });
        return Response.noContent().build();
    }

    static Optional<HiveTable> find(Handle h, long id) {
        return h.createQuery("SELECT * FROM hive_table WHERE table_id = :id").bind("id", id)
                .map((rs, ctx) -> HiveTable.map(rs)).findOne();
    }

    private static void requireUniqueName(Handle tx, HiveTableRequest r, Long exceptId) {
        boolean taken = tx.createQuery("""
                        SELECT count(*) FROM hive_table WHERE db_name = :db AND table_name = :table
                          AND table_id IS DISTINCT FROM :except""")
                .bind("db", r.dbName()).bind("table", r.tableName()).bindByType("except", exceptId, Long.class)
                .mapTo(Long.class).one() > 0;
        if (taken) {
            throw DUPLICATE.exception("hive table " + r.dbName() + "." + r.tableName() + " is already registered");
        }
    }
}
