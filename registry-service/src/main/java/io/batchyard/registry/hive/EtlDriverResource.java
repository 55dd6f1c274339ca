package io.batchyard.registry.hive;

import static io.batchyard.api.CommonErrors.NOT_FOUND;
import static io.batchyard.registry.RegistryError.INVALID_PARENT;
import static io.batchyard.registry.RegistryError.UNKNOWN_REFERENCE;

import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/** Links a data-load parent process to its raw table, raw view and base table (BDRE ETL_DRIVER). */
@Path("/processes/{id}/etl-driver")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "hive tables")
public class EtlDriverResource {

    public record EtlDriver(@NotNull @Positive Long rawTableId, @Positive Long baseTableId,
                            @NotNull @Positive Long rawViewId, Short insertType, Boolean dropRaw) {
    }

    @Inject
    Jdbi jdbi;

    @PUT
    public EtlDriver put(@PathParam("id") long processId, @Valid @NotNull EtlDriver d) {
        EtlDriver normalised = new EtlDriver(d.rawTableId(), d.baseTableId(), d.rawViewId(),
                d.insertType() == null ? 1 : d.insertType(), d.dropRaw() != null && d.dropRaw());
        jdbi.useTransaction(tx -> {
            Boolean isLiveParent = tx.createQuery(
                            "SELECT parent_process_id IS NULL AND NOT deleted FROM process WHERE process_id = :id")
                    .bind("id", processId).mapTo(Boolean.class).findOne()
                    .orElseThrow(() -> NOT_FOUND.exception("process " + processId + " does not exist"));
            if (!isLiveParent) {
                throw INVALID_PARENT.exception("an ETL driver belongs to a live parent process; " + processId + " is not one");
            }
            requireTable(tx, normalised.rawTableId(), "TABLE");
            requireTable(tx, normalised.rawViewId(), "VIEW");
            if (normalised.baseTableId() != null) {
                requireTable(tx, normalised.baseTableId(), "TABLE");
            }
            tx.createUpdate("""
                            INSERT INTO etl_driver (etl_process_id, raw_table_id, base_table_id, raw_view_id, insert_type, drop_raw)
                            VALUES (:pid, :rawTableId, :baseTableId, :rawViewId, :insertType, :dropRaw)
                            ON CONFLICT (etl_process_id) DO UPDATE SET raw_table_id = EXCLUDED.raw_table_id,
                              base_table_id = EXCLUDED.base_table_id, raw_view_id = EXCLUDED.raw_view_id,
                              insert_type = EXCLUDED.insert_type, drop_raw = EXCLUDED.drop_raw""")
                    .bind("pid", processId).bindMethods(normalised).execute();
        });
        return normalised;
    }

    @GET
    public EtlDriver get(@PathParam("id") long processId) {
        return jdbi.withHandle(h -> h.createQuery("SELECT * FROM etl_driver WHERE etl_process_id = :id")
                        .bind("id", processId)
                        .map((rs, ctx) -> new EtlDriver(rs.getLong("raw_table_id"),
                                rs.getObject("base_table_id") == null ? null : rs.getLong("base_table_id"),
                                rs.getLong("raw_view_id"), rs.getShort("insert_type"), rs.getBoolean("drop_raw")))
                        .findOne())
                .orElseThrow(() -> NOT_FOUND.exception("process " + processId + " has no ETL driver"));
    }

    @DELETE
    public Response delete(@PathParam("id") long processId) {
        int deleted = jdbi.withHandle(h -> h.createUpdate("DELETE FROM etl_driver WHERE etl_process_id = :id")
                .bind("id", processId).execute());
        if (deleted == 0) {
            throw NOT_FOUND.exception("process " + processId + " has no ETL driver");
        }
        return Response.noContent().build();
    }

    private static void requireTable(Handle tx, long tableId, String type) {
        HiveTableResource.HiveTable table = HiveTableResource.find(tx, tableId)
                .orElseThrow(() -> UNKNOWN_REFERENCE.exception("hive table " + tableId + " does not exist"));
        if (!table.type().equals(type)) {
            throw UNKNOWN_REFERENCE.exception("hive table " + tableId + " is a " + table.type() + ", expected a " + type);
        }
    }
}
