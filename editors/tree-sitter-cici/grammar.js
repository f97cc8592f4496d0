/**
 * @file The cici seed language: scenarios for contextual-integrity privacy
 * benchmarks.
 * @license MIT OR Apache-2.0
 *
 * The structure follows `grammar/cici.pest` (the compiler's grammar): it
 * knows statements and their shapes, not which a family allows. Keywords
 * are not reserved, so a person named `pair` or an evidence value `all`
 * parses as a name wherever a name is expected.
 */

/// <reference types="tree-sitter-cli/dsl" />
// @ts-check

const list = ($, item) => seq('[', optional(seq(item, repeat(seq(',', item)), optional(','))), ']');

module.exports = grammar({
  name: 'cici',

  extras: $ => [/\s/, '\uFEFF', $.comment],

  word: $ => $.identifier,

  reserved: {
    global: _ => [],
  },

  rules: {
    source_file: $ => repeat($.scenario),

    scenario: $ => seq('scenario', field('name', $.identifier), '{', repeat($._item), '}'),

    _item: $ => choice(
      $.family_statement,
      $.text_statement,
      $.executor_statement,
      $.purpose_statement,
      $.norms,
      $.person,
      $.room,
      $.meeting,
      $.ticket,
      $.levels,
      $.outcomes,
      $.evidence,
      $.rubric,
      $.rules,
      $.exclude,
      $.attribute,
      $.oracle,
    ),

    family_statement: $ => seq('family', field('family', $.identifier)),
    text_statement: $ => seq(
      field('key', choice('title', 'task', 'recipient', 'public', 'policy')),
      field('text', $.string),
    ),
    executor_statement: $ => seq('executor', field('person', $.identifier)),

    purpose_statement: $ => seq('purpose', field('purpose', $.identifier)),

    norms: $ => seq('norms', '{', repeat($.norm), '}'),
    norm: $ => seq(
      'share', field('kinds', choice($.identifier, $.name_list)),
      'with', field('recipients', choice($.identifier, $.name_list)),
      optional(seq('for', field('purpose', $.identifier))),
    ),

    person: $ => seq(
      'person', field('name', $.identifier), field('display', $.string),
      'role', field('role', $.string),
      repeat(choice(
        seq('skills', $.name_list),
        seq('groups', $.name_list),
        seq('reports_to', field('manager', $.identifier)),
      )),
    ),

    room: $ => seq(
      'room', field('name', $.identifier), optional(field('display', $.string)),
      'capacity', field('capacity', $.integer),
      optional($.features),
    ),
    features: $ => seq('features', $.name_list),

    meeting: $ => seq(
      'meeting', field('name', $.identifier), field('title', $.string),
      '{', repeat(choice($.attendees, $.slots, $.rooms, $.features)), '}',
    ),
    attendees: $ => seq('attendees', $.name_list),
    slots: $ => seq('slots', list($, $.slot)),
    rooms: $ => seq('rooms', $.name_list),

    ticket: $ => seq(
      'ticket', field('name', $.identifier), field('title', $.string),
      '{', repeat(choice(
        seq('needs', field('skill', $.identifier)),
        seq('hours', field('hours', $.integer)),
        'pair',
        seq('with', field('skill', $.identifier), 'hours', field('hours', $.integer)),
        seq('priority', field('priority', $.identifier)),
        'collaboration_heavy',
        'sensitive',
      )), '}',
    ),

    levels: $ => seq('levels', $.name_list),
    outcomes: $ => seq('outcomes', $.name_list),
    evidence: $ => seq('evidence', field('variable', $.identifier), $.name_list),
    rubric: $ => seq('rubric', '{', repeat($.rule), $.otherwise, '}'),
    rules: $ => seq('rules', '{', repeat($.rule), optional($.otherwise), '}'),
    rule: $ => seq(field('outcome', $.identifier), 'when', field('condition', $._condition)),
    otherwise: $ => seq('otherwise', field('outcome', $.identifier)),
    exclude: $ => seq('exclude', field('condition', $._condition)),

    _condition: $ => choice($.or, $.and, $.not, $.parenthesized, $.comparison),
    or: $ => prec.left(1, seq($._condition, 'or', $._condition)),
    and: $ => prec.left(2, seq($._condition, 'and', $._condition)),
    not: $ => prec(3, seq('not', $._condition)),
    parenthesized: $ => seq('(', $._condition, ')'),
    comparison: $ => seq(
      field('variable', $.identifier),
      choice(
        seq(field('operator', choice('=', '!=')), field('value', $.identifier)),
        seq(field('operator', 'in'), $.name_list),
      ),
    ),

    attribute: $ => seq(
      'attribute', field('name', $.identifier),
      '{', repeat(choice(
        seq('holder', field('holder', $.identifier)),
        seq('about', field('about', $.identifier)),
        seq('category', field('category', $.identifier)),
        $.form,
        $.fact,
      )), '}',
    ),
    form: $ => seq(
      field('kind', choice('raw', 'sanitized')),
      field('text', $.string),
      optional(field('label', choice('appropriate', 'inappropriate'))),
      optional($.visibility),
    ),
    visibility: $ => seq('visible', choice(seq('all', optional(seq('except', $.name_list))), $.name_list)),
    fact: $ => seq(
      field('kind', choice('fact', 'soft', 'claim')),
      field('predicate', $.identifier),
      '(', optional(seq($._argument, repeat(seq(',', $._argument)), optional(','))), ')',
    ),
    _argument: $ => choice($.slot, $.integer, $.identifier),

    oracle: $ => seq('oracle', choice(
      seq('{', repeat($.assignment), '}'),
      field('outcome', $.identifier),
    )),
    assignment: $ => seq(
      field('target', $.identifier), '->',
      choice(
        seq($.slot, '@', field('room', $.identifier)),
        seq(field('owner', $.identifier), optional(seq('+', field('collaborator', $.identifier)))),
      ),
    ),

    name_list: $ => list($, $.identifier),

    slot: _ => token(seq(
      choice('mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'),
      /[ \t]+/, /\d{1,2}:\d\d/, '-', /\d{1,2}:\d\d/,
    )),

    identifier: _ => /[A-Za-z_][A-Za-z0-9_]*/,
    integer: _ => /\d+/,
    string: $ => choice($._triple_string, $._plain_string),
    _plain_string: _ => token(seq('"', repeat(choice(/[^"\\\n]/, /\\./)), '"')),
    _triple_string: _ => token(seq('"""', repeat(choice(/[^"]/, /"[^"]/, /""[^"]/)), '"""')),
    comment: _ => token(seq('#', /.*/)),
  },
});
