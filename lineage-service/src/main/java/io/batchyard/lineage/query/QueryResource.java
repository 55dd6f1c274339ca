package io.batchyard.lineage.query;

import static io.batchyard.lineage.LineageError.UNKNOWN_QUERY;

import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jdbi.v3.core.Jdbi;

/** Queries registered by running steps; each is parsed on registration and shows its parse status. */
@Path("/queries")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "queries")
public class QueryResource {

    /** {@code queryId}: optional, makes a retried registration idempotent. */
    public record RegisterQuery(UUID queryId, @NotNull QueryType queryType,
                                @NotBlank @Size(max = 1_000_000) String queryText,
                                @NotNull @Positive Long processId, @Positive Long instanceExecId,
                                @Size(max = 128) @Pattern(regexp = "[A-Za-z0-9_$]*") String defaultDatabase) {
    }

    @Inject
    Jdbi jdbi;

    @Inject
    QueryRegistrar registrar;

    @Inject
    QueryStore queries;

    @POST
    @Operation(summary = "Register a query (HIVE, SQL or PIG) of a process run; it is parsed at once")
    public Response register(@Valid @NotNull RegisterQuery r) {
        NewQuery query = new NewQuery(r.queryId(), r.queryType(), r.queryText(), r.processId(), r.instanceExecId(),
                r.defaultDatabase());
        StoredQuery stored = TransientRetry.run(() -> jdbi.inTransaction(tx -> registrar.register(tx, query, "api", null)));
        return Response.created(URI.create("/queries/" + stored.id())).entity(stored).build();
    }

    @GET
    @Path("{id}")
    public StoredQuery get(@PathParam("id") UUID id) {
        return jdbi.withHandle(h -> queries.find(h, id))
                .orElseThrow(() -> UNKNOWN_QUERY.exception("query " + id + " is not registered"));
    }

    @GET
    public Page<StoredQuery> list(@QueryParam("processId") @Positive Long processId,
                                  @QueryParam("instanceExecId") @Positive Long instanceExecId,
                                  @QueryParam("status") StoredQuery.ParseStatus status,
                                  @Valid @BeanParam PageRequest page) {
        QueryStore.Filter f = new QueryStore.Filter(processId, instanceExecId, status);
        return jdbi.withHandle(h -> Page.of(queries.list(h, f, page.limit(), page.offset()), queries.count(h, f), page));
    }
}
