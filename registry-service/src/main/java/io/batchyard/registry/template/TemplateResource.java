package io.batchyard.registry.template;

import static io.batchyard.api.CommonErrors.NOT_FOUND;

import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.registry.process.ProcessApi;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
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
import org.jdbi.v3.core.Jdbi;

/** Process templates, their property templates, and "create from template". */
@Path("/process-templates")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "templates")
public class TemplateResource {

    @Inject
    TemplateService service;

    @Inject
    TemplateDao templates;

    @Inject
    Jdbi jdbi;

    @POST
    public Response create(@Valid @NotNull TemplateApi.CreateTemplate request) {
        TemplateRow created = service.create(request);
        return Response.created(URI.create("/process-templates/" + created.templateId())).entity(created).build();
    }

    @GET
    public Page<TemplateRow> list(@Valid @BeanParam PageRequest page,
                                  @QueryParam("parentsOnly") @DefaultValue("false") boolean parentsOnly) {
        return jdbi.withHandle(h -> Page.of(templates.list(h, parentsOnly, page.limit(), page.offset()),
                templates.count(h, parentsOnly), page));
    }

    @GET
    @Path("{id}")
    public TemplateRow get(@PathParam("id") long id) {
        return jdbi.withHandle(h -> templates.find(h, id))
                .orElseThrow(() -> NOT_FOUND.exception("template " + id + " does not exist"));
    }

    @GET
    @Path("{id}/tree")
    public TemplateApi.TemplateTree tree(@PathParam("id") long id) {
        return jdbi.withHandle(h -> {
            TemplateRow row = templates.find(h, id)
                    .orElseThrow(() -> NOT_FOUND.exception("template " + id + " does not exist"));
            return TemplateApi.TemplateTree.of(templates.tree(h, row.isParent() ? id : row.parentTemplateId()));
        });
    }

    @PATCH
    @Path("{id}")
    public TemplateRow update(@PathParam("id") long id, @Valid @NotNull TemplateApi.PatchTemplate patch) {
        return service.update(id, patch);
    }

    @DELETE
    @Path("{id}")
    public Response delete(@PathParam("id") long id) {
        service.delete(id);
        return Response.noContent().build();
    }

    @POST
    @Path("{id}/instantiate")
    @Operation(summary = "Create a new process tree from a parent template and its step templates")
    public Response instantiate(@PathParam("id") long id, @Valid TemplateApi.Instantiate request) {
        ProcessApi.ProcessTree tree = ProcessApi.ProcessTree.of(service.instantiate(id, request));
        return Response.created(URI.create("/processes/" + tree.parent().id())).entity(tree).build();
    }

    @GET
    @Path("{id}/properties")
    public List<TemplateDao.PropertyTemplate> properties(@PathParam("id") long id) {
        return jdbi.withHandle(h -> {
            templates.find(h, id).orElseThrow(() -> NOT_FOUND.exception("template " + id + " does not exist"));
            return templates.properties(h, id);
        });
    }

    @PUT
    @Path("{id}/properties/{key}")
    public TemplateDao.PropertyTemplate putProperty(@PathParam("id") long id,
            @PathParam("key") @Size(min = 1, max = 128) @Pattern(regexp = "[^/\\s]+") String key,
            @Valid @NotNull TemplateApi.PropertyTemplateRequest request) {
        TemplateDao.PropertyTemplate p = new TemplateDao.PropertyTemplate(id, request.configGroup(), key,
                request.value(), request.description() == null ? "" : request.description());
        jdbi.useTransaction(tx -> {
            templates.find(tx, id).orElseThrow(() -> NOT_FOUND.exception("template " + id + " does not exist"));
            templates.upsertProperty(tx, p);
        });
        return p;
    }

    @DELETE
    @Path("{id}/properties/{key}")
    public Response deleteProperty(@PathParam("id") long id, @PathParam("key") String key) {
        if (!jdbi.inTransaction(tx -> templates.deleteProperty(tx, id, key))) {
            throw NOT_FOUND.exception("template " + id + " has no property '" + key + "'");
        }
        return Response.noContent().build();
    }
}
