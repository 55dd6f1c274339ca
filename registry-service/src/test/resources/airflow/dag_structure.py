"""Prints the structure of a generated Airflow DAG file as JSON, read from its AST (no Airflow needed):
the DAG's settings, each task (id, operator class, trigger rule, retries, full bash command, doc, env keys) and the
dependency edges between task ids."""
import ast
import json
import sys

tree = ast.parse(open(sys.argv[1], encoding="utf-8").read())
constants = {}
dag = {}
tasks = {}
edges = []


def value(node):
    try:
        return ast.literal_eval(node)
    except ValueError:
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return value(node.left) + value(node.right)
        if isinstance(node, ast.Name) and node.id in constants:
            return constants[node.id]
        return ast.unparse(node)


def names(node):
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, (ast.List, ast.Tuple)):
        return [n for e in node.elts for n in names(e)]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.RShift):
        return names(node.right)
    raise ValueError("not a task reference: " + ast.dump(node))


def shifts(node):
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.RShift):
        shifts(node.left)
        for source in names(node.left):
            for target in names(node.right):
                edges.append([source, target])


for node in tree.body:
    if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
        try:
            constants[node.targets[0].id] = ast.literal_eval(node.value)
        except ValueError:
            pass

for node in ast.walk(tree):
    if isinstance(node, ast.With):
        for item in node.items:
            call = item.context_expr
            if isinstance(call, ast.Call) and getattr(call.func, "id", None) == "DAG":
                dag = {k.arg: value(k.value) for k in call.keywords if k.arg != "start_date"}
    elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) \
            and getattr(node.value.func, "id", "").endswith("Operator"):
        kw = {k.arg: k.value for k in node.value.keywords}
        task = {"var": node.targets[0].id, "operator": node.value.func.id}
        for name in ("task_id", "trigger_rule", "retries", "bash_command", "trigger_dag_id", "doc"):
            if name in kw:
                task[name] = value(kw[name])
        if "env" in kw:
            task["env"] = {value(k): value(v) for k, v in zip(kw["env"].keys, kw["env"].values) if k is not None}
        tasks[task["var"]] = task
    elif isinstance(node, ast.Expr):
        shifts(node.value)

print(json.dumps({
    "dag": dag,
    "tasks": {t["task_id"]: t for t in tasks.values()},
    "edges": [[tasks[a]["task_id"], tasks[b]["task_id"]] for a, b in edges],
}))
