package io.batchyard.lineage.schema;

import static io.batchyard.lineage.LineageError.UNKNOWN_TABLE;

import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.LinkedHashSet;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jdbi.v3.core.Jdbi;

/** Table schemas: there is no Hive metastore, so the columns of input tables are registered here. */
@Path("/tables")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "tables")
public class TableSchemaResource {

    public record Columns(@NotNull @NotEmpty @Size(max = 5000) List<@NotNull String> columns) {
    }

    @Inject
    Jdbi jdbi;

    @Inject
    TableSchemaStore store;

    @PUT
    @Path("{table}")
    @Operation(summary = "Register or replace the ordered columns of db.table")
    public TableSchemaStore.TableSchema put(@PathParam("table") String table, @Valid @NotNull Columns body) {
        TableName name = TableName.parse(table);
        List<String> columns = List.copyOf(new LinkedHashSet<>(body.columns().stream().map(TableName::column).toList()));
        return jdbi.inTransaction(h -> {
            store.put(h, name.qualified(), columns, "api");
            return store.find(h, name.qualified()).orElseThrow();
        });
    }

    @GET
    @Path("{table}")
    public TableSchemaStore.TableSchema get(@PathParam("table") String table) {
        TableName name = TableName.parse(table);
        return jdbi.withHandle(h -> store.find(h, name.qualified()))
                .orElseThrow(() -> UNKNOWN_TABLE.exception("no schema registered for " + name));
    }

    @GET
    public Page<TableSchemaStore.TableSchema> list(@Valid @BeanParam PageRequest page) {
        return jdbi.withHandle(h -> Page.of(store.list(h, page.limit(), page.offset()), store.count(h), page));
    }
}
