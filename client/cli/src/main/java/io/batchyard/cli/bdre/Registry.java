package io.batchyard.cli.bdre;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The registry-service calls an import makes, in the registry's own terms. {@link HttpRegistry} makes them over REST;
 * tests hand in an in-memory registry.
 */
public interface Registry {

    /** An application; {@code id} 0 before it is created. */
    record Application(long id, String name, String description, String owner) {
    }

    /** Who owns an application and the permission type (0, 4, 6, 7) of its owner, owner group and others. */
    record Permissions(String ownerUser, String ownerGroup, int owner, int group, int others) {
    }

    /** A process (a parent when {@code parentId} is null); {@code id} null when the registry is to choose it. */
    record Process(Long id, String name, String description, long applicationId, int typeId, Long parentId,
                   boolean canRecover, List<Long> enqueuing, String batchCutPattern, List<Long> next,
                   int workflowTypeId, boolean deleted) {
    }

    /** A property or property template; a secret's value is null as read back. */
    record Property(String configGroup, String key, String value, String description, boolean secret) {
    }

    /** A process template; {@code id} null before it is created. */
    record Template(Long id, String name, String description, long applicationId, int typeId, Long parentId,
                    boolean canRecover, String batchCutPattern, List<Long> next, int workflowTypeId) {
    }

    /**
     * A server. The credentials are write-only: set on the way in, read back only as {@code hasLoginPassword} and
     * {@code hasSshPrivateKey}.
     */
    record Server(Long id, String type, String name, String metainfo, String loginUser, String ip,
                  String loginPassword, String sshPrivateKey, boolean hasLoginPassword, boolean hasSshPrivateKey) {
        @Override
        public String toString() {
            return "Server[id=" + id + ", type=" + type + ", name=" + name + ", credentials masked]";
        }
    }

    /** Process type id to its parent type id (null for a parent-level type). */
    Map<Integer, Integer> processTypes();

    Optional<Application> applicationNamed(String name);

    Application createApplication(Application application);

    void updateApplication(Application application);

    Permissions permissions(long applicationId);

    void setPermissions(long applicationId, Permissions permissions);

    /** The process, deleted ones included; empty when there is none. */
    Optional<Process> process(long id);

    /** The live processes of an application. */
    List<Process> processes(long applicationId);

    /** Registers a process with its id when it has one; answers the id. */
    long createProcess(Process process);

    /** A merge patch of the named fields. */
    void patchProcess(long id, Map<String, Object> patch);

    List<Property> properties(long processId);

    void putProperty(long processId, Property property);

    /** Every live template. */
    List<Template> templates();

    long createTemplate(Template template);

    void patchTemplate(long id, Map<String, Object> patch);

    List<Property> templateProperties(long templateId);

    void putTemplateProperty(long templateId, Property property);

    List<Server> servers();

    long createServer(Server server);

    /** Replaces the server; a null credential keeps the stored one, {@code ""} removes it. */
    void updateServer(long id, Server server);
}
