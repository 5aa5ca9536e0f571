#include <cstdio>
int main() { std::puts("dtcrit"); return 0; }
