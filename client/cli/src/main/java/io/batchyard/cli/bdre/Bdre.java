package io.batchyard.cli.bdre;

import java.util.ArrayList;
import java.util.List;

/**
 * The rows of a BDRE metadata database that an import carries over, as BDRE's tables hold them (column names in the
 * comments are BDRE's). Empty text stays empty here; the mapping decides what an empty column means.
 */
public final class Bdre {

    private Bdre() {
    }

    /** BUS_DOMAIN. */
    public record BusDomain(long id, String name, String description, String owner) {
    }

    /**
     * PROCESS: a parent when {@code parentId} is null. {@code enqueuing} and {@code next} are the id lists of
     * {@code enqueuing_process_id} and {@code next_process_id} ({@code 0} and empty entries dropped). The owner and
     * the three permission types are null where the schema predates process permissions.
     */
    public record Process(long id, String name, String description, long busDomainId, int typeId, Long parentId,
                          boolean canRecover, List<Long> enqueuing, String batchCutPattern, List<Long> next,
                          boolean deleted, int workflowId, String userName, String ownerRole, Integer userAccess,
                          Integer groupAccess, Integer othersAccess) {
    }

    /** PROPERTIES (and PROPERTIES_TEMPLATE, {@code ownerId} then being the template). */
    public record Property(long ownerId, String configGroup, String key, String value, String description) {
    }

    /** PROCESS_TEMPLATE. */
    public record Template(long id, String name, String description, long busDomainId, int typeId, Long parentId,
                           boolean canRecover, String batchCutPattern, List<Long> next, boolean deleted,
                           int workflowId) {
    }

    /** SERVERS; the credentials as BDRE stores them (in clear), never printed. */
    public record Server(long id, String type, String name, String metainfo, String loginUser, String loginPassword,
                         String sshPrivateKey, String ip) {
        @Override
        public String toString() {
            return "Server[id=" + id + ", type=" + type + ", name=" + name + ", credentials masked]";
        }
    }

    /** Everything read from one BDRE database. */
    public record Snapshot(List<BusDomain> busDomains, List<Process> processes, List<Property> properties,
                           List<Template> templates, List<Property> templateProperties, List<Server> servers) {

        /** Only the bus domains named in {@code names} (all when empty) and what belongs to them; servers are shared. */
        public Snapshot onlyDomains(List<String> names) {
            if (names == null || names.isEmpty()) {
                return this;
            }
            List<BusDomain> domains = busDomains.stream().filter(d -> names.contains(d.name())).toList();
            List<Long> ids = domains.stream().map(BusDomain::id).toList();
            List<Process> procs = processes.stream().filter(p -> ids.contains(p.busDomainId())).toList();
            List<Long> procIds = procs.stream().map(Process::id).toList();
            List<Template> tmpls = templates.stream().filter(t -> ids.contains(t.busDomainId())).toList();
            List<Long> tmplIds = tmpls.stream().map(Template::id).toList();
            return new Snapshot(domains, procs,
                    properties.stream().filter(p -> procIds.contains(p.ownerId())).toList(), tmpls,
                    templateProperties.stream().filter(p -> tmplIds.contains(p.ownerId())).toList(), servers);
        }
    }

    /** A BDRE id list column ({@code "12,13"}; {@code "0"} and blanks mean none). */
    public static List<Long> ids(String column) {
        List<Long> ids = new ArrayList<>();
        if (column == null) {
            return ids;
        }
        for (String part : column.split(",")) {
            String p = part.trim();
            if (!p.isEmpty() && !"0".equals(p)) {
                ids.add(Long.parseLong(p));
            }
        }
        return ids;
    }
}
