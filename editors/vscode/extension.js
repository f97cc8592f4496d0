// The cici extension: starts `cici lsp` for *.cici files and hands the
// editor to it (diagnostics with fixes, hover, definition, completion,
// formatting). Highlighting comes from the TextMate grammar.
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");
const { execFile } = require("child_process");

let client;

/** The configured binary, checked before the client starts. */
function binary() {
  return vscode.workspace.getConfiguration("cici").get("path") || "cici";
}

/** Resolves when `<binary> --version` runs; rejects with a message otherwise. */
function probe(command) {
  return new Promise((resolve, reject) => {
    execFile(command, ["--version"], { timeout: 10000 }, (error, stdout) => {
      if (error) {
        reject(
          new Error(
            `cici: cannot run \`${command}\` (${error.code || error.message}). ` +
              "Install it with `cargo install --path .` in the cici repository, " +
              "or set `cici.path` to the binary."
          )
        );
      } else {
        resolve(stdout.trim());
      }
    });
  });
}

async function start(context) {
  const command = binary();
  try {
    await probe(command);
  } catch (e) {
    const action = await vscode.window.showErrorMessage(e.message, "Open settings");
    if (action === "Open settings") {
      vscode.commands.executeCommand("workbench.action.openSettings", "cici.path");
    }
    return;
  }
  const run = { command, args: ["lsp"], transport: TransportKind.stdio };
  client = new LanguageClient(
    "cici",
    "cici language server",
    { run, debug: run },
    { documentSelector: [{ scheme: "file", language: "cici" }, { scheme: "untitled", language: "cici" }] }
  );
  await client.start();
  context.subscriptions.push(client);
}

async function activate(context) {
  context.subscriptions.push(
    vscode.commands.registerCommand("cici.restartServer", async () => {
      if (client) {
        await client.stop();
        client = undefined;
      }
      await start(context);
    }),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (e.affectsConfiguration("cici.path")) {
        await vscode.commands.executeCommand("cici.restartServer");
      }
    })
  );
  await start(context);
}

async function deactivate() {
  if (client) {
    await client.stop();
  }
}

module.exports = { activate, deactivate };
