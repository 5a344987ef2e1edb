// mofmu's language server in VS Code: starts `mofmu lsp` for Modelica files
// (the binary from the `mofmu.path` setting) through vscode-languageclient.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("mofmu").get("path") || "mofmu";
  const server = { command, args: ["lsp"] };
  client = new LanguageClient(
    "mofmu",
    "mofmu",
    { run: server, debug: server },
    { documentSelector: [{ scheme: "file", language: "modelica" }] }
  );
  context.subscriptions.push({ dispose: () => client && client.stop() });
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
