; a data-dependent loop (no fixed trip count) per index point: the
; Collatz steps of v = s + i until it reaches 1, counted; out = the count
target triple = "tpc"

define void @main(i32 %s) {
entry:
  %off = call <5 x i32> @llvm.tpc.get.index.space.offset()
  %size = call <5 x i32> @llvm.tpc.get.index.space.size()
  %first = extractelement <5 x i32> %off, i32 0
  %n = extractelement <5 x i32> %size, i32 0
  %last = add i32 %first, %n
  br label %body

body:
  %i = phi i32 [ %first, %entry ], [ %next, %wdone ]
  %x = mul i32 %i, 64
  %c = insertelement <5 x i32> zeroinitializer, i32 %x, i32 0
  %v0 = add i32 %s, %i
  br label %w
w:
  %v = phi i32 [ %v0, %body ], [ %vn, %w ]
  %k = phi i32 [ 0, %body ], [ %kn, %w ]
  %odd = and i32 %v, 1
  %isodd = icmp ne i32 %odd, 0
  %t3 = mul i32 %v, 3
  %t31 = add i32 %t3, 1
  %h = lshr i32 %v, 1
  %vn = select i1 %isodd, i32 %t31, i32 %h
  %kn = add i32 %k, 1
  %go = icmp ugt i32 %vn, 1
  br i1 %go, label %w, label %wdone
wdone:
  %kv = insertelement <64 x i32> undef, i32 %kn, i32 0
  %ks = shufflevector <64 x i32> %kv, <64 x i32> undef, <64 x i32> zeroinitializer
  call void @llvm.tpc.st.tnsr.v64i32(<5 x i32> %c, i8 0, <64 x i32> %ks, i32 0, i1 true, i1 false)
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %last
  br i1 %more, label %body, label %exit

exit:
  ret void
}

declare <5 x i32> @llvm.tpc.get.index.space.offset()
declare <5 x i32> @llvm.tpc.get.index.space.size()
declare void @llvm.tpc.st.tnsr.v64i32(<5 x i32>, i8, <64 x i32>, i32, i1, i1)
