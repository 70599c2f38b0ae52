// The names TypeScript modules export, as the compiler resolves them: each a value or a type only.
import * as ts from 'typescript';

export interface ModuleExport {
  readonly name: string;
  /** Whether it is a value (a function, constant, class or enum), not a type only. */
  readonly value: boolean;
}

/** The exports of each file, in the order given (one program reads them all). */
export function exportsOf(...files: string[]): ModuleExport[][] {
  const options = {
    strict: true, noEmit: true, module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16, target: ts.ScriptTarget.ES2022,
  };
  const program = ts.createProgram(files, options);
  const checker = program.getTypeChecker();
  return files.map((file) => checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(file)!)!).map((s) => {
    // Symbol flags are bit sets: an alias is followed to what it names, which is a value or a type.
    // eslint-disable-next-line no-bitwise
    const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
    // eslint-disable-next-line no-bitwise
    return { name: s.name, value: (target.flags & ts.SymbolFlags.Value) !== 0 };
  }));
}
