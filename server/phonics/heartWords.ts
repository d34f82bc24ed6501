/**
 * Heart words: common words whose spelling does not follow the patterns a beginner has learned (the part that
 * must be learned "by heart"). Decode mode marks the whole word instead of its letters, so that it does not
 * teach a rule the word breaks ('said' is not ai = /eɪ/; 'one' starts with /w/).
 */
export const HEART_WORDS: ReadonlySet<string> = new Set([
  'the', 'of', 'to', 'do', 'does', 'done', 'said', 'says', 'was', 'were', 'you', 'your', 'could', 'would', 'should',
  'one', 'once', 'two', 'who', 'whose', 'whom', 'what', 'where', 'there', 'their', 'they', 'come', 'comes', 'some',
  'from', 'have', 'give', 'gives', 'live', 'love', 'loves', 'are', 'any', 'many', 'again', 'been', 'because', 'people',
  'friend', 'friends', 'school', 'put', 'pull', 'push', 'full', 'only', 'other', 'others', 'mother', 'brother',
  'another', 'father', 'water', 'word', 'words', 'work', 'world', 'great', 'break', 'eye', 'eyes', 'sure', 'busy',
  'build', 'laugh', 'enough', 'though', 'through', 'thought', 'buy', 'four', 'move', 'prove', 'shoe', 'shoes', 'gone',
  'none', 'above', 'ocean', 'touch', 'young', 'country', 'women', 'woman', 'wolf', 'sugar', 'nothing',
]);

export function isHeartWord(lowerWord: string): boolean {
  return HEART_WORDS.has(lowerWord);
}
