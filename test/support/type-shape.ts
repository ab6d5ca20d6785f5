import { createHash } from 'node:crypto';
import ts from 'typescript';

/**
 * The shape of an exported type as its values are written in JSON: each property's name, whether it is optional and
 * its type, followed through every interface, alias and array it names, as one text; names of properties, members of
 * unions and index signatures in code-unit order, so the order a file lists them in does not count, nor do comments,
 * nor the names the types go by. Functions are left out, as JSON.stringify leaves them out.
 */
export function typeShape(file: string, typeName: string): string {
  return typeShapes([file], typeName)[0]!;
}

/** typeShape of the type `typeName` of each file, read as one program (the standard library is read once). */
export function typeShapes(files: readonly string[], typeName: string): string[] {
  const program = ts.createProgram(files, {
    strict: true,
    target: ts.ScriptTarget.ES2023,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    skipLibCheck: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  return files.map((file) => {
    const source = program.getSourceFile(file);
    const module = source && checker.getSymbolAtLocation(source);
    if (module === undefined) throw new Error(`${file} could not be read as a module`);
    const exported = checker.getExportsOfModule(module).find((symbol) => symbol.name === typeName);
    if (exported === undefined) throw new Error(`${file} exports no type named ${typeName}`);
    return describe(checker, checker.getDeclaredTypeOfSymbol(exported), []);
  });
}

/** typeShape as a short SHA-256 digest, to be recorded beside the version it was the shape of. */
export function typeShapeDigest(file: string, typeName: string): string {
  return createHash('sha256').update(typeShape(file, typeName)).digest('hex').slice(0, 16);
}

function describe(checker: ts.TypeChecker, type: ts.Type, enclosing: readonly ts.Type[]): string {
  // A type that holds itself (a tree) is written as a reference back to where it started.
  const depth = enclosing.indexOf(type);
  if (depth >= 0) return `^${enclosing.length - depth}`;
  const inner = [...enclosing, type];
  if (type.flags & (ts.TypeFlags.BooleanLiteral | ts.TypeFlags.StringLike | ts.TypeFlags.NumberLike | ts.TypeFlags.BigIntLike)) return checker.typeToString(type);
  if (type.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined | ts.TypeFlags.Void | ts.TypeFlags.Unknown | ts.TypeFlags.Any | ts.TypeFlags.Never)) {
    return checker.typeToString(type);
  }
  if (type.isUnion()) return `(${sortedShapes(checker, type.types, inner).join(' | ')})`;
  if (type.isIntersection()) return `(${sortedShapes(checker, type.types, inner).join(' & ')})`;
  if (checker.isTupleType(type)) return `[${checker.getTypeArguments(type as ts.TypeReference).map((element) => describe(checker, element, inner)).join(', ')}]`;
  if (checker.isArrayType(type)) return `${describe(checker, checker.getTypeArguments(type as ts.TypeReference)[0]!, inner)}[]`;
  const properties = checker
    .getPropertiesOfType(type)
    .filter((property) => checker.getTypeOfSymbol(property).getCallSignatures().length === 0)
    .map((property) => {
      const optional = (property.flags & ts.SymbolFlags.Optional) !== 0;
      const propertyType = checker.getTypeOfSymbol(property);
      return optional ? `${property.name}?: ${describeOptional(checker, propertyType, inner)}` : `${property.name}: ${describe(checker, propertyType, inner)}`;
    });
  const indexes = checker.getIndexInfosOfType(type).map((index) => `[${checker.typeToString(index.keyType)}]: ${describe(checker, index.type, inner)}`);
  return `{ ${[...indexes.sort(), ...properties.sort()].join('; ')} }`;
}

/** An optional property's type without the `undefined` its being optional adds (strict null checks). */
function describeOptional(checker: ts.TypeChecker, type: ts.Type, enclosing: readonly ts.Type[]): string {
  if (!type.isUnion()) return describe(checker, type, enclosing);
  const defined = type.types.filter((member) => !(member.flags & ts.TypeFlags.Undefined));
  if (defined.length === 1) return describe(checker, defined[0]!, enclosing);
  return `(${sortedShapes(checker, defined, [...enclosing, type]).join(' | ')})`;
}

function sortedShapes(checker: ts.TypeChecker, types: readonly ts.Type[], enclosing: readonly ts.Type[]): string[] {
  return types.map((member) => describe(checker, member, enclosing)).sort();
}
