package io.batchyard.registry.template.api;

import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.api.Roles;
import io.batchyard.registry.process.ProcessApi;
import io.batchyard.registry.process.ProcessMapping;
import io.batchyard.registry.process.PropertyKey;
import io.batchyard.registry.template.PropertyTemplate;
import io.batchyard.registry.template.TemplateApi;
import io.batchyard.registry.template.TemplateRow;
import io.batchyard.registry.template.TemplateService;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Process templates, their property templates, and "create from template". */
@RolesAllowed(Roles.VIEWER)
@Path("/process-templates")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "templates")
public class TemplateResource {

    private final TemplateService service;

    public TemplateResource(TemplateService service) {
        this.service = service;
    }

    @RolesAllowed(Roles.DEVELOPER)
    @POST
    public Uni<Response> create(@Valid @NotNull TemplateApi.CreateTemplate request) {
        return service.create(request).map(created -> Response.created(
                URI.create("/process-templates/" + created.templateId())).entity(created).build());
    }

    @GET
    public Uni<Page<TemplateRow>> list(@Valid @BeanParam PageRequest page,
                                       @QueryParam("parentsOnly") @DefaultValue("false") boolean parentsOnly) {
        return service.list(parentsOnly, page.limit(), page.offset())
                .map(listing -> Page.of(listing.items(), listing.total(), page));
    }

    @GET
    @Path("{id}")
    public Uni<TemplateRow> get(@PathParam("id") long id) {
        return service.get(id);
    }

    @GET
    @Path("{id}/tree")
    public Uni<TemplateApi.TemplateTree> tree(@PathParam("id") long id) {
        return service.tree(id).map(TemplateApi.TemplateTree::of);
    }

    @RolesAllowed(Roles.DEVELOPER)
    @PATCH
    @Path("{id}")
    public Uni<TemplateRow> update(@PathParam("id") long id, @Valid @NotNull TemplateApi.PatchTemplate patch) {
        return service.update(id, patch);
    }

    @RolesAllowed(Roles.DEVELOPER)
    @DELETE
    @Path("{id}")
    public Uni<Response> delete(@PathParam("id") long id) {
        return service.delete(id).map(done -> Response.noContent().build());
    }

    @RolesAllowed(Roles.DEVELOPER)
    @POST
    @Path("{id}/instantiate")
    @Operation(summary = "Create a new process tree from a parent template and its step templates")
    public Uni<Response> instantiate(@PathParam("id") long id, @Valid TemplateApi.Instantiate request) {
        return service.instantiate(id, request).map(rows -> {
            ProcessApi.ProcessTree tree = ProcessMapping.tree(rows);
            return Response.created(URI.create("/processes/" + tree.parent().id())).entity(tree).build();
        });
    }

    @GET
    @Path("{id}/properties")
    public Uni<List<PropertyTemplate>> properties(@PathParam("id") long id) {
        return service.properties(id);
    }

    @RolesAllowed(Roles.DEVELOPER)
    @PUT
    @Path("{id}/properties/{key}")
    public Uni<PropertyTemplate> putProperty(@PathParam("id") long id,
            @PathParam("key") @PropertyKey String key,
            @Valid @NotNull TemplateApi.PropertyTemplateRequest request) {
        return service.putProperty(new PropertyTemplate(id, request.configGroup(), key, request.value(),
                request.description() == null ? "" : request.description()));
    }

    @RolesAllowed(Roles.DEVELOPER)
    @DELETE
    @Path("{id}/properties/{key}")
    public Uni<Response> deleteProperty(@PathParam("id") long id, @PathParam("key") @PropertyKey String key) {
        return service.deleteProperty(id, key).map(done -> Response.noContent().build());
    }
}
