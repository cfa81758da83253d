/** Calling the extension's agent tools as another extension does (no chat token), and reading what they answer. */
import * as vscode from 'vscode';

/** What a tool answers, as a model reads it: its text parts (anything else shown by its kind, so it fails a match). */
export async function askTool(name: string, input: object = {}): Promise<string> {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });
  return result.content
    .map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : `<${typeof part}>`))
    .join('');
}
