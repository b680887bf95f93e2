// A TypeDoc plugin for packages documented from several entry points (@zkts/protocol: the client, /codec and
// /inspect). The client entry's exports are merged into the package's page (`@mergeModuleWith <project>`),
// but TypeDoc drops that entry's @packageDocumentation comment on the way, which leaves the package without a
// description. This gives the package that comment before the merge.
import { Comment, Converter, ReflectionKind } from 'typedoc';

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.on(
    Converter.EVENT_RESOLVE_BEGIN,
    (context) => {
      const { project } = context;
      if (project.comment !== undefined) return;
      for (const module of project.getReflectionsByKind(ReflectionKind.SomeModule)) {
        const tag = module.comment?.getTag('@mergeModuleWith');
        if (tag === undefined || Comment.combineDisplayParts(tag.content) !== '<project>') continue;
        const comment = module.comment.clone();
        comment.removeTags('@mergeModuleWith');
        project.comment = comment;
        return;
      }
    },
    // Before TypeDoc's own MergeModuleWithPlugin (priority 10,000), which removes the entry's module.
    20_000,
  );
}
